import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodonInput } from "../../src/hank/schema/index.ts";
import {
  FAKE_CLOCK_START,
  hankOf,
  type RunningHankTest,
  scriptedCodon,
  startHankForTest,
} from "../../src/testing/index.ts";
import { infos, lifecycle } from "./support.ts";

/** An agent that says one thing, then hangs for ten minutes. */
const HANGS = "@say working\n@sleep 600000";

function startHanging(fields: Partial<CodonInput>): RunningHankTest {
  return startHankForTest({ hank: hankOf([scriptedCodon("a", HANGS, fields)]) });
}

/** Waits until the engine has seen the agent's last words in `attempt` and the agent is asleep. */
async function untilHung(running: RunningHankTest, attempt = 1): Promise<void> {
  const started = await running.waitForEvent("codon.started", (e) => e.data.attempt === attempt);
  await running.waitForEvent("assistant.action", (e) => e.seq > started.seq);
  await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
}

describe("idle timeout", () => {
  it("stops a silent agent after shimIdleTimeout with a retriable timeout failure", async (t) => {
    const running = startHanging({ shimIdleTimeout: 5 });
    t.after(running.remove);
    await untilHung(running);
    running.clock.advance(4999);
    assert.deepEqual(lifecycle(running.events), ["started a"]);
    running.clock.advance(1);
    const run = await running.done;
    assert.deepEqual(run.data("codon.completed"), [
      {
        codonId: "a",
        success: false,
        cost: 0,
        duration: 5000,
        exitStatus: { type: "none" },
        failureReason: {
          type: "timeout",
          retriable: true,
          message: "Idle timeout: no events received for 5000ms",
        },
        endReasons: { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "error" },
        attempt: 1,
        failedDuring: "running",
      },
    ]);
    assert.equal(run.data("codon.started")[0]?.startTime, new Date(FAKE_CLOCK_START).toISOString());
    // Default onFailure is abort, and the run is headless: a retriable failure ends it (scenario 11).
    assert.equal(run.result.exitCode, 1);
    assert.deepEqual(run.clock.pending(), []);
  });

  it("is retried under onFailure retry, like any retriable failure", async (t) => {
    const running = startHanging({
      shimIdleTimeout: 5,
      onFailure: "retry",
      retryConfig: { maxAttempts: 2, delayMs: 0, maxDelayMs: 0 },
    });
    t.after(running.remove);
    await untilHung(running, 1);
    running.clock.advance(5000);
    await untilHung(running, 2);
    running.clock.advance(5000);
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a failed",
      "started a",
      "completed a failed",
    ]);
    assert.deepEqual(infos(run.events), [
      "Retrying codon a (attempt 2 of 2) in 0ms: Idle timeout: no events received for 5000ms",
    ]);
    assert.equal(
      run.result.message,
      "Codon a failed (retries exhausted): Idle timeout: no events received for 5000ms",
    );
  });

  interface Source {
    readonly title: string;
    readonly codon: Partial<CodonInput>;
    readonly hankTimeout?: number;
    readonly cliTimeout?: number;
    readonly expectedMs: number;
  }
  const sources: readonly Source[] = [
    {
      title: "the codon's shimIdleTimeout comes first",
      codon: { shimIdleTimeout: 3 },
      hankTimeout: 7,
      cliTimeout: 9,
      expectedMs: 3000,
    },
    {
      title: "then the hank's overrides.shimIdleTimeout",
      codon: {},
      hankTimeout: 7,
      cliTimeout: 9,
      expectedMs: 7000,
    },
    { title: "then the command line's idle timeout", codon: {}, cliTimeout: 9, expectedMs: 9000 },
    { title: "and the scripted agent's default, 180 s, when none is set", codon: {}, expectedMs: 180_000 },
  ];
  for (const { title, codon, hankTimeout, cliTimeout, expectedMs } of sources) {
    it(title, async (t) => {
      const running = startHankForTest({
        hank: hankOf(
          [scriptedCodon("a", HANGS, codon)],
          hankTimeout === undefined ? {} : { overrides: { shimIdleTimeout: hankTimeout } },
        ),
        ...(cliTimeout !== undefined && { options: { agentIdleTimeoutSeconds: cliTimeout } }),
      });
      t.after(running.remove);
      await untilHung(running);
      const idle = running.clock.pending().filter((timer) => timer.delayMs !== 600_000);
      assert.deepEqual(
        idle.map((timer) => timer.delayMs),
        [expectedMs],
      );
      running.clock.advance(expectedMs);
      const run = await running.done;
      assert.equal(
        run.data("codon.completed")[0]?.failureReason?.message,
        `Idle timeout: no events received for ${expectedMs}ms`,
      );
    });
  }
});
