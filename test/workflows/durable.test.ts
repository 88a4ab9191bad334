import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as pause } from "node:timers/promises";
import type { JournaledEvent } from "../../src/events/index.ts";
import { readAll } from "../../src/journal/index.ts";
import { type LoopOptions, loop, WorkflowArgumentError } from "../../src/workflows/index.ts";
import { CODER, chain, mark, REVIEWER, sandbox, sessionsOf } from "./support.ts";

const CHILD = join(import.meta.dirname, "fixtures", "durable-child.ts");

async function journalOf(dir: string): Promise<JournaledEvent[]> {
  return (await readAll(join(dir, "run", ".hankweave", "events", "events.jsonl"))).events;
}

/** How many times each step was sent to its agent (`codon.started` per runtime id). */
function startsPerStep(events: readonly JournaledEvent[]): Record<string, number> {
  const starts: Record<string, number> = {};
  for (const event of events) {
    if (event.type === "codon.started") starts[event.data.codonId] = (starts[event.data.codonId] ?? 0) + 1;
  }
  return starts;
}

/** Runs the loop in a child process and SIGKILLs its process group once `holding()` is true. */
async function runAndKill(options: LoopOptions, holding: () => boolean): Promise<NodeJS.Signals | null> {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(options)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("close", (_code, signal) => resolve(signal)),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !holding()) await pause(5);
  assert.ok(!done, `the loop ended before it was killed: ${stderr}`);
  process.kill(-(child.pid ?? 0), "SIGKILL");
  return exited;
}

/** Ends the command the killed step left running in its own process group. */
function endHold(pidFile: string): void {
  try {
    process.kill(-Number.parseInt(readFileSync(pidFile, "utf8"), 10), "SIGKILL");
  } catch {
    // Already gone.
  }
}

describe("loop({ durable }): journal, checkpoints and resume", () => {
  const sb = sandbox("durable");
  after(() => sb.remove());

  it("runs in <dir>/run, and a second call returns the finished loop without running anything", async () => {
    const dir = sb.path("finished");
    const project = sb.path("project");
    mkdirSync(project);
    writeFileSync(join(project, "notes.md"), "read me");
    const options: LoopOptions = {
      steps: [CODER, REVIEWER],
      input: chain([mark("c1"), mark("r1")]),
      maxIterations: 1,
      cwd: project,
      durable: { dir },
    };
    const first = await loop(options);
    assert.deepEqual([first.ok, first.converged, first.steps.length], [true, true, 2]);
    assert.equal(first.workspace, join(dir, "run", "agentRoot"));
    assert.equal(readFileSync(join(first.workspace, "trail.txt"), "utf8"), "c1\nr1\n");
    assert.ok(existsSync(join(dir, "run", ".hankweave", "checkpoints")));
    // cwd is linked into the durable workspace read-only.
    assert.equal(readFileSync(join(first.workspace, "read_only_data_source", "notes.md"), "utf8"), "read me");
    const journalLength = (await journalOf(dir)).length;
    const again = await loop(options);
    assert.deepEqual(
      again.steps.map((step) => [step.codonId, step.output]),
      first.steps.map((step) => [step.codonId, step.output]),
    );
    assert.deepEqual([again.ok, again.converged, again.endCause], [true, true, "max-iterations"]);
    assert.equal((await journalOf(dir)).length, journalLength, "nothing was run or journaled again");
    writeFileSync(join(project, "notes.md"), "changed since");
    const changed = await loop(options);
    assert.equal(changed.endCause, "refused");
    const message = changed.error?.message ?? "";
    assert.match(message, /put options\.cwd back as it was, or pass another durable\.dir/);
    assert.doesNotMatch(message, /--force|--start-new/, "no advice in flags loop() does not have");
  });

  it("refuses to continue a directory with other arguments, before anything runs", async () => {
    const dir = sb.path("other-arguments");
    await loop({ steps: [CODER], input: "@say one", maxIterations: 1, durable: { dir } });
    await assert.rejects(
      loop({ steps: [CODER], input: "@say two", maxIterations: 1, durable: { dir } }),
      (error: unknown) => {
        assert.ok(error instanceof WorkflowArgumentError);
        assert.deepEqual(
          error.issues.map((issue) => issue.argument),
          ["options.durable.dir"],
        );
        assert.match(error.message, /input, lifetime, the token budget or tools differ/);
        return true;
      },
    );
  });

  it("after a failed step, calling again runs that step again and carries on", async () => {
    const dir = sb.path("failed-once");
    const options: LoopOptions = {
      steps: [CODER, REVIEWER],
      input: chain([mark("c1"), `@fail attempts=1 Your credit balance is too low\n${mark("r1")}`]),
      maxIterations: 1,
      durable: { dir },
    };
    const failed = await loop(options);
    assert.deepEqual([failed.ok, failed.error?.kind, failed.endCause], [false, "failed", "failed"]);
    const retried = await loop(options);
    assert.deepEqual([retried.ok, retried.converged, retried.steps.length], [true, true, 2]);
    assert.deepEqual(startsPerStep(await journalOf(dir)), { "coder#0": 1, "reviewer#0": 2 });
    assert.equal(readFileSync(join(retried.workspace, "trail.txt"), "utf8"), "c1\nr1\n");
  });

  it("after a SIGKILL mid-step, continues from the interrupted step and never re-sends a completed one", async () => {
    const dir = sb.path("killed");
    const pidFile = sb.path("hold.pid");
    // coder#1 holds on its first attempt only: the marker lives outside the workspace.
    const hold = `@run if [ ! -e ${pidFile} ]; then echo $$ > ${pidFile}; sleep 60; fi`;
    const options: LoopOptions = {
      steps: [CODER, REVIEWER],
      input: chain([mark("c1"), mark("r1"), `${mark("c2 begin")}\n${hold}\n${mark("c2 end")}`, mark("r2")]),
      maxIterations: 2,
      lifetime: "workflow",
      durable: { dir },
    };
    const signal = await runAndKill(options, () => existsSync(pidFile));
    endHold(pidFile);
    assert.equal(signal, "SIGKILL");
    assert.deepEqual(startsPerStep(await journalOf(dir)), { "coder#0": 1, "reviewer#0": 1, "coder#1": 1 });

    const resumed = await loop(options);
    assert.deepEqual(
      [resumed.ok, resumed.converged, resumed.endCause, resumed.output],
      [true, true, "max-iterations", "done"],
    );
    assert.deepEqual(
      resumed.steps.map((step) => `${step.codonId}:${step.ok}`),
      ["coder#0:true", "reviewer#0:true", "coder#1:true", "reviewer#1:true"],
    );
    const events = await journalOf(dir);
    // The completed steps ran once; the interrupted one was marked so and ran again on its stored input.
    assert.deepEqual(startsPerStep(events), { "coder#0": 1, "reviewer#0": 1, "coder#1": 2, "reviewer#1": 1 });
    const crashed = events.filter(
      (e) => e.type === "state.transition" && e.data.transitionType === "RunCrashed",
    );
    assert.equal(crashed.length, 1);
    // Each agent kept its session across the two processes (lifetime "workflow").
    assert.deepEqual(sessionsOf(events), [
      "coder#0 s1<--",
      "reviewer#0 s2<--",
      "coder#1 s1<-s1",
      "coder#1 s1<-s1",
      "reviewer#1 s2<-s2",
    ]);
    // Before the re-run the workspace went back to the step's starting checkpoint, so the interrupted
    // attempt's first line is gone and every line is there once, in order.
    const trail = readFileSync(join(resumed.workspace, "trail.txt"), "utf8").split("\n").filter(Boolean);
    assert.deepEqual(trail, ["c1", "r1", "c2 begin", "c2 end", "r2"]);
  });
});
