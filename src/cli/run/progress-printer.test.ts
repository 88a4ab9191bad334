import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleEvent } from "../../events/event-samples.ts";
import type { DataOf } from "../../events/index.ts";
import { RunViewFold } from "../../journal/run-view.ts";
import {
  createFakeClock,
  hankOf,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../testing/index.ts";
import { closingLines, progressLine, progressPrinter } from "./progress-printer.ts";

function collector(): { write(text: string): void; text(): string; lines(): string[] } {
  const chunks: string[] = [];
  return {
    write: (text) => chunks.push(text),
    text: () => chunks.join(""),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter((l) => l !== ""),
  };
}

describe("headless progress: heartbeat", () => {
  it("prints a heartbeat after 10 s of silence with the phase, the elapsed time and the last tool", async (t) => {
    const clock = createFakeClock();
    const out = collector();
    const running = startHankForTest({
      hank: hankOf([scriptedCodon("build", "@run echo compiling\n@sleep 25000\n@say built")]),
      clock,
      listeners: [progressPrinter(out, { clock })],
    });
    t.after(running.remove);
    await running.waitForEvent("tool.result");
    await clock.nextTimer((timer) => timer.delayMs === 25_000);
    const quiet = out.lines().length;
    clock.advance(9_999);
    assert.equal(out.lines().length, quiet, "nothing before 10 s of silence");
    clock.advance(1);
    assert.deepEqual(out.lines().slice(quiet), [
      "… 10s elapsed · build running · last tool: Bash echo compiling (10s ago)",
    ]);
    clock.advance(10_000);
    assert.equal(
      out.lines().at(-1),
      "… 20s elapsed · build running · last tool: Bash echo compiling (20s ago)",
    );
    clock.advance(5_000);
    const run = await running.done;
    assert.equal(run.result.status, "completed");
    assert.equal(
      out.lines().filter((line) => line.startsWith("…")).length,
      2,
      "no heartbeat once the run has ended",
    );
    assert.deepEqual(clock.pending(), [], "the heartbeat timer is cleared at the end");
  });

  it("stays quiet while lines are printed", async (t) => {
    const clock = createFakeClock();
    const out = collector();
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", "@say a"), scriptedCodon("b", "@say b")]),
      clock,
      listeners: [progressPrinter(out, { clock })],
    });
    t.after(run.remove);
    assert.equal(
      out.lines().some((line) => line.startsWith("…")),
      false,
    );
    assert.deepEqual(clock.pending(), []);
  });
});

describe("headless progress: summary", () => {
  it("gives codons completed/failed/ignored, tokens in and out, simulated cost and elapsed time", async (t) => {
    const clock = createFakeClock();
    const out = collector();
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("ok", "@usage input=1200 output=300 cost=0.25\n@sleep 65000"),
        scriptedCodon("bad", "@fail invalid_request_error: Invalid model", { onFailure: "ignore" }),
      ]),
      clock,
      listeners: [
        progressPrinter(out, { clock }),
        (event) => {
          if (event.type === "token.usage") void clock.advanceToNext((timer) => timer.delayMs === 65_000);
        },
      ],
    });
    t.after(run.remove);
    const summary = out.text().slice(out.text().indexOf("✓ Run completed"));
    assert.equal(
      summary,
      [
        "✓ Run completed: 1 codon(s) completed, 0 failed, 1 ignored",
        "  Tokens:    1,200 in, 300 out",
        "  Cost:      $0.2500 (simulated by the scripted agent; nothing was spent)",
        "  Elapsed:   1m 05s",
        "",
      ].join("\n"),
    );
  });

  it("closes with the workspace and the outputs, and offers a resume only when the run did not complete", async (t) => {
    const run = await runHankForTest({ hank: hankOf([scriptedCodon("a", "@say a")]) });
    t.after(run.remove);
    const places = { executionDir: "/x/exec", agentRoot: "/x/exec/agentRoot" };
    assert.equal(
      closingLines(run.state, places),
      "  Workspace: /x/exec/agentRoot\n  Outputs:   not copied (outputFiles are copied with -o <dir>)\n",
    );
    assert.match(closingLines(run.state, { ...places, outputDir: "/x/out" }), /Outputs: {3}\/x\/out\n/);
    const failed = await runHankForTest({
      hank: hankOf([scriptedCodon("f", "@fail Your credit balance is too low")]),
    });
    t.after(failed.remove);
    const closing = closingLines(failed.state, places);
    assert.match(closing, /^ {2}Failed codon: f \(during running\)\n/);
    assert.match(closing, /Resume: {4}hankweave --execution \/x\/exec\n$/);
    const quoted = closingLines(failed.state, { ...places, executionDir: "/x/my exec's" });
    assert.match(quoted, /Resume: {4}hankweave --execution '\/x\/my exec'\\''s'\n$/);
    const aborted = { stream: "aborted", toolBatch: "aborted", turn: "aborted", codon: "aborted" } as const;
    const stopped = {
      ...failed.state,
      codons: failed.state.codons.map((c) => ({ ...c, endReasons: aborted })),
    };
    assert.match(closingLines(stopped, places), /^ {2}Stopped codon: f \(during running\)\n/);
  });
});

describe("headless progress: codon lines", () => {
  const completed = sampleEvent("codon.completed");
  const line = (data: Partial<DataOf<"codon.completed">>) =>
    progressLine({ ...completed, data: { ...completed.data, ...data } }, new RunViewFold().view());

  it("says a codon stopped by a cancel was stopped, and gives a failed one its reason", () => {
    const codonEnd = (codon: "aborted" | "error") =>
      ({ stream: codon, toolBatch: "completed", turn: codon, codon }) as const;
    assert.equal(
      line({
        success: false,
        exitStatus: { type: "killed", signal: "SIGTERM" },
        endReasons: codonEnd("aborted"),
      }),
      "✗ edit#0 61.0s $0.4200 stopped",
    );
    assert.equal(
      line({
        success: false,
        exitStatus: { type: "error", code: 1 },
        endReasons: codonEnd("error"),
        failureReason: { type: "api-error", retriable: false, message: "Overloaded" },
      }),
      "✗ edit#0 61.0s $0.4200 failed: Overloaded",
    );
  });

  it("says an attempt a crash cut short was interrupted, not that it failed for an unknown reason", () => {
    const interrupted = "interrupted";
    assert.equal(
      line({
        success: false,
        duration: 0,
        exitStatus: { type: "none" },
        endReasons: { stream: interrupted, toolBatch: interrupted, turn: interrupted, codon: interrupted },
      }),
      "✗ edit#0 interrupted (the runtime was killed during it)",
    );
  });
});

describe("headless progress: where the run stands", () => {
  it('says "codon 4 of 7" and "iteration 2 of 3" as each codon starts and each iteration ends', async (t) => {
    const out = collector();
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("draft", "@say drafted"),
        scriptedLoop("polish", { type: "iterationLimit", limit: 3 }, [
          scriptedCodon("critique", "@say critiqued"),
          scriptedCodon("revise", "@say revised"),
        ]),
      ]),
      listeners: [progressPrinter(out)],
    });
    t.after(run.remove);
    const lines = out.lines().filter((line) => line.startsWith("> ") || line.startsWith("+ "));
    assert.deepEqual(lines.slice(1), [
      "> draft: draft (codon 1 of 7)",
      "> critique#0: critique (codon 2 of 7, iteration 1 of 3)",
      "> revise#0: revise (codon 3 of 7, iteration 1 of 3)",
      "+ loop polish iteration 1 of 3 done in 0.0s $0.0000",
      "> critique#1: critique (codon 4 of 7, iteration 2 of 3)",
      "> revise#1: revise (codon 5 of 7, iteration 2 of 3)",
      "+ loop polish iteration 2 of 3 done in 0.0s $0.0000",
      "> critique#2: critique (codon 6 of 7, iteration 3 of 3)",
      "> revise#2: revise (codon 7 of 7, iteration 3 of 3)",
      "+ loop polish iteration 3 of 3 done in 0.0s $0.0000, loop ended (iteration_limit)",
    ]);
  });

  it("leaves out a total the plan cannot know: a loop that ends on context exhaustion", async (t) => {
    const out = collector();
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("grow", { type: "contextExceeded" }, [
          scriptedCodon("step", "@exhaust-context", { continuationMode: "continue-previous" }),
        ]),
      ]),
      listeners: [progressPrinter(out)],
    });
    t.after(run.remove);
    assert.ok(out.lines().includes("> step#0: step (codon 1, iteration 1)"), out.text());
  });
});
