import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codon, hankOf, serveHank } from "../server/support.ts";
import { renderTui } from "./support.ts";

const FLAKY = "@fail attempts=1 API Error: 503 Service Unavailable\n@say recovered";

describe("the TUI on a live run", () => {
  it("running: the timeline, the running codon's activity folded to one line each, the heartbeat; q stops the run", async () => {
    const served = await serveHank(
      hankOf([
        // The pause keeps the finished tool on screen for a few frames before the codon folds it.
        codon("a", "@say Looking at the data\n@run echo hi\n@sleep 300"),
        codon("hold", "@say Thinking hard\n@sleep 600000"),
      ]),
      { stayOpen: true },
    );
    try {
      const tui = await renderTui(served.server.url, "readandwrite");
      await tui.waitFor(/> hold HOLD/);
      await tui.waitFor(/^ {2}Thinking hard$/m);
      const output = tui.output();
      assert.match(output, /^✓ a A {2}\d+\.\ds {2}\$0\.0000$/m);
      assert.match(output, /^ {2}✓ Bash echo hi$/m);
      assert.match(tui.lastFrame(), /^hankweave {2}.*\/exec {2}port \d+$/m);
      tui.advance(11_000);
      await tui.waitFor(/\.\.\. Model thinking \(1\d\.\ds without events\)/);
      tui.press("q");
      await tui.waitFor(/Stopping: waiting for the agent to exit\. Press q again to force quit\./);
      const end = await served.host.ended;
      assert.deepEqual([end.exitCode, end.reason], [0, "client request"]);
      await served.server.close();
      await tui.exited;
      assert.match(tui.lastFrame(), /Run Aborted/);
      assert.match(tui.lastFrame(), /Resume {5}hankweave --execution .*\/exec/);
    } finally {
      await served.remove();
    }
  });

  it("parked: the waiting box, the rollback menu, n retries, then the budget table and Run Complete", async () => {
    const served = await serveHank(
      hankOf([codon("a", "@say a"), codon("b", FLAKY, { budget: { maxDollars: 2 } })]),
      {
        stayOpen: true,
        start: false,
      },
    );
    try {
      const tui = await renderTui(served.server.url, "readandwrite");
      served.host.start(served.server.port);
      await tui.waitFor(/Waiting for input/);
      assert.match(tui.lastFrame(), /Codon b failed\. Send retry to run it again/);
      assert.match(tui.output(), /^✗ b {2}\d+\.\ds {2}failed: .*503/m);
      tui.press("r");
      await tui.waitFor(/Roll back to/);
      assert.match(tui.lastFrame(), /^│ > after a/m);
      tui.press("\u001B");
      await tui.waitFor(/n {2}next {5}s {2}skip/);
      assert.doesNotMatch(tui.lastFrame(), /Roll back to/);
      tui.press("n");
      await tui.waitFor(/Run Complete/);
      const frame = tui.lastFrame();
      assert.match(frame, /Codons {5}2 codon\(s\) completed, 0 failed, 0 ignored(?!,)/);
      assert.match(frame, /Budget \(spent \/ limit\)/);
      assert.match(frame, /^│ b +\$0\.0000 \/ \$2\.0000 /m);
      tui.press("q");
      const end = await served.host.ended;
      assert.equal(end.exitCode, 0);
      assert.equal(end.result?.kind === "ran" && end.result.outcome, "completed");
      await served.server.close();
      await tui.exited;
    } finally {
      await served.remove();
    }
  });

  it("parked: s skips the failed codon and the run completes with it counted as skipped", async () => {
    const served = await serveHank(hankOf([codon("a", FLAKY), codon("b", "@say b")]), {
      stayOpen: true,
      start: false,
    });
    try {
      const tui = await renderTui(served.server.url, "readandwrite");
      served.host.start(served.server.port);
      await tui.waitFor(/Waiting for input/);
      tui.press("s");
      await tui.waitFor(/Run Complete/);
      assert.match(tui.lastFrame(), /Codons {5}1 codon\(s\) completed, 0 failed, 0 ignored, 1 skipped/);
      assert.doesNotMatch(tui.lastFrame(), /Waiting for input/);
      tui.press("q");
      assert.equal((await served.host.ended).exitCode, 0);
      await served.server.close();
      await tui.exited;
    } finally {
      await served.remove();
    }
  });

  it("running: a second q forces the shutdown (exit status 1)", async () => {
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]), { stayOpen: true });
    try {
      const tui = await renderTui(served.server.url, "readandwrite");
      await tui.waitFor(/> hold HOLD/);
      tui.press("q");
      tui.press("q");
      const end = await served.host.ended;
      assert.deepEqual([end.forced, end.exitCode], [true, 1]);
      await served.server.close();
      await tui.exited;
    } finally {
      await served.remove();
    }
  });

  it("failed: a permanent failure ends in Run Failed", async () => {
    const served = await serveHank(hankOf([codon("a", "@fail Your credit balance is too low")]));
    try {
      const tui = await renderTui(served.server.url, "readandwrite");
      const end = await served.host.ended;
      assert.equal(end.exitCode, 1);
      await served.server.close();
      await tui.exited;
      assert.match(tui.lastFrame(), /Run Failed/);
      assert.match(tui.lastFrame(), /Codons {5}0 codon\(s\) completed, 1 failed, 0 ignored/);
    } finally {
      await served.remove();
    }
  });

  it("read-only (attach): history first, steering keys refused, q detaches; no colour codes, at most 120 columns", async () => {
    const served = await serveHank(hankOf([codon("a", "@say a"), codon("hold", "@sleep 600000")]));
    try {
      const watcher = await served.connect("readonly");
      await watcher.waitForEvent(
        "codon.started",
        (e) => e.type === "codon.started" && e.data.codonId === "hold",
      );
      const tui = await renderTui(served.server.url, "readonly", { width: 200 });
      await tui.waitFor(/> hold HOLD/);
      assert.match(tui.output(), /^✓ a A /m, "the history came first");
      assert.match(tui.lastFrame(), /\(read-only\)/);
      tui.press("n");
      await tui.waitFor(/Read-only: this watcher cannot steer the run/);
      tui.press("q");
      await tui.exited;
      assert.equal(served.host.status.running?.id, "hold");
      const output = tui.output();
      assert.equal(output.includes("\u001B[3"), false, "no colour without colour");
      assert.ok(output.split("\n").every((line) => line.length <= 120));
    } finally {
      await served.remove();
    }
  });
});
