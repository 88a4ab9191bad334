import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { renderRunSummary } from "../../src/cli/render/run-summary.ts";
import { type JournaledEvent, readAll } from "../../src/journal/index.ts";
import { viewOf } from "../../src/journal/run-view.ts";
import {
  createFakeClock,
  hankOf,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../src/testing/index.ts";
import { runAndKill } from "../fixtures/journal-watch.ts";
import {
  codon,
  executions,
  hankweave,
  journal,
  onlyExecution,
  type Sandbox,
  sandbox,
  writeHank,
} from "../workspace/support.ts";
import {
  type FaceStory,
  headlessStory,
  serverLive,
  summaryText,
  tuiStory,
  webStory,
} from "./render-faces.ts";

/**
 * One run, one story: a corpus of journals (a retry that succeeds, Ctrl-C then resume, a crash then
 * resume, an ignored failure, a budget stop, a rollback, a loop ended by context exhaustion) rendered
 * through every face, the headless progress, the TUI (and so `--attach`), the web page and the server's
 * status, which must all tell the same counts and outcome, and the right ones.
 */

async function journalOf(path: string): Promise<JournaledEvent[]> {
  return (await readAll(path)).events;
}

/** Asserts every face tells `expected`, and that no face still counts the run as live. */
function assertOneStory(events: readonly JournaledEvent[], expected: FaceStory): void {
  const faces = { headless: headlessStory(events), tui: tuiStory(events), web: webStory(events) };
  for (const [face, story] of Object.entries(faces)) assert.deepEqual(story, expected, `the ${face} face`);
  assert.equal(serverLive(events), false, "the server's status: no run is live");
}

const SERVER_500 = "API Error: 500 Internal Server Error";

describe("every face tells the same story of a run", () => {
  it("a failed attempt that a retry fixed is no failure", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", `@fail attempts=1 ${SERVER_500}\n@say recovered`, {
          onFailure: "retry",
          retryConfig: { maxAttempts: 2, delayMs: 0, maxDelayMs: 0 },
        }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    t.after(run.remove);
    assertOneStory(run.events, {
      counts: "2 codon(s) completed, 0 failed, 0 ignored",
      outcome: "completed",
    });
  });

  it("an ignored failure is counted as ignored, and the run completes", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@fail Your credit balance is too low", { onFailure: "ignore" }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    t.after(run.remove);
    assertOneStory(run.events, { counts: "1 codon(s) completed, 0 failed, 1 ignored", outcome: "completed" });
  });

  it("Ctrl-C stops a codon (counted stopped, not failed); the resume completes it and counts no failure", async (t) => {
    const controller = new AbortController();
    const hank = hankOf([
      scriptedCodon("a", "@sleep attempts=1 600000\n@say a"),
      scriptedCodon("b", "@say b"),
    ]);
    const clock = createFakeClock();
    const running = startHankForTest({ hank, clock, signal: controller.signal });
    t.after(running.remove);
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    controller.abort();
    const stopped = await running.done;
    assertOneStory(await journalOf(stopped.journalPath), {
      counts: "0 codon(s) completed, 0 failed, 0 ignored, 1 stopped",
      outcome: "aborted",
    });
    const resumed = await runHankForTest({ hank, continueFrom: stopped });
    assert.equal(resumed.result.status, "completed", resumed.result.message);
    assertOneStory(await journalOf(resumed.journalPath), {
      counts: "2 codon(s) completed, 0 failed, 0 ignored",
      outcome: "completed",
    });
  });

  it("a budget that stops a codon completes it (onExceeded: complete) and the run completes", async (t) => {
    const spend = (cost: number) => `@usage input=100 output=50 cost=${cost}`;
    const run = await runHankForTest({
      hank: hankOf(
        [
          scriptedCodon("a", spend(0.8)),
          scriptedCodon("b", `${spend(0.5)}\n${spend(0.5)}\n@sleep 1000\n@write late.txt too late`),
        ],
        { overrides: { budget: { maxDollars: 1 } } },
      ),
    });
    t.after(run.remove);
    assertOneStory(run.events, { counts: "2 codon(s) completed, 0 failed, 0 ignored", outcome: "completed" });
  });

  it("a run ceiling spent inside a loop: the codons it starved are counted not started, and the run completes", async (t) => {
    const spend = "@usage input=100 output=50 cost=0.01";
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("work", { type: "iterationLimit", limit: 6 }, [scriptedCodon("step", spend)]),
        scriptedCodon("d", "@write d.txt d"),
      ]),
      options: { maxCostUsd: 0.015 },
    });
    t.after(run.remove);
    assertOneStory(run.events, {
      counts: "2 codon(s) completed, 0 failed, 0 ignored, 2 not started",
      outcome: "completed",
    });
    const printed: string[] = [];
    const view = viewOf(run.events);
    printed.push(...renderRunSummary(view, "completed", 0));
    assert.ok(
      printed.includes(
        "  Undone:    run ceiling $0.0150 spent: 4 of 6 iterations of step not run; codon d not started (raise the ceiling and run the execution again to do it)",
      ),
      printed.join("\n"),
    );
  });

  it("a loop ended by context exhaustion: every iteration's codon counted once", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("work", { type: "contextExceeded" }, [
          scriptedCodon("step", "@say step\n@exhaust-context iterations=2", {
            continuationMode: "continue-previous",
          }),
        ]),
      ]),
    });
    t.after(run.remove);
    const counts = webStory(run.events).counts;
    assert.match(counts ?? "", /^3 codon\(s\) completed, 0 failed, 0 ignored$/);
    assertOneStory(run.events, { counts, outcome: "completed" });
  });

  describe("through the CLI (crash and resume, rollback)", () => {
    const sb = sandbox("faces");
    after(() => sb.remove());

    it("a crash mid-codon, then the same command: the interrupted attempt is no failure", async () => {
      const hank = writeHank(join(sb.root, "crash"), [
        codon("a", "@write a.txt a", { checkpointedFiles: ["*.txt"] }),
        codon("b", `@append b.txt begin\n@run attempts=1 sleep 30\n@append b.txt end`),
        codon("c", "@write c.txt c"),
      ]);
      const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: sb.executions };
      const killed = await runAndKill(
        [hank, "--headless"],
        { env, baseDir: sb.executions },
        { when: () => false, seen: () => bStarted(sb), group: true },
      );
      assert.ok(killed.killed, killed.result.stderr);
      const crashedJournal = await journal(onlyExecution(sb));
      // Before the next start, the journal ends mid-run: every face still shows b running.
      assert.equal(webStory(crashedJournal).outcome, "running");
      const resumed = await hankweave(sb, [hank, "--headless"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      const story = { counts: "3 codon(s) completed, 0 failed, 0 ignored", outcome: "completed" } as const;
      assert.deepEqual(summaryText(resumed.stderr), story, "the CLI's own headless summary");
      assertOneStory(await journal(onlyExecution(sb)), story);
    });

    it("a rollback undoes the codons after its target in every face; the restart completes them again", async () => {
      const box = sandbox("faces-rollback");
      try {
        const hank = writeHank(join(box.root, "hank"), [
          codon("a", "@write a.txt a", { checkpointedFiles: ["*.txt"] }),
          codon("b", "@write b.txt b", { checkpointedFiles: ["*.txt"] }),
          codon("c", "@write c.txt c", { checkpointedFiles: ["*.txt"] }),
        ]);
        const first = await hankweave(box, [hank, "--headless"]);
        assert.equal(first.code, 0, first.stderr);
        const exec = onlyExecution(box);
        const back = await hankweave(box, ["rollback", "a", "-e", exec.executionDir, "--headless"]);
        assert.equal(back.code, 0, back.stderr);
        const rolledBack = await journal(exec);
        assert.deepEqual(webStory(rolledBack), {
          counts: "1 codon(s) completed, 0 failed, 0 ignored",
          outcome: "none",
        });
        assert.equal(tuiStory(rolledBack).outcome, "none");
        const again = await hankweave(box, ["-e", exec.executionDir, "--headless"]);
        assert.equal(again.code, 0, again.stderr);
        const story = { counts: "3 codon(s) completed, 0 failed, 0 ignored", outcome: "completed" } as const;
        assert.deepEqual(summaryText(again.stderr), story, "the CLI's own headless summary");
        assertOneStory(await journal(exec), story);
      } finally {
        box.remove();
      }
    });
  });
});

/** Codon b of the crash case has begun: its first write is in the workspace. */
function bStarted(box: Sandbox): boolean {
  const [layout] = executions(box);
  return layout !== undefined && existsSync(join(layout.agentRoot, "b.txt"));
}
