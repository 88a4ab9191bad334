import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodonInput } from "../../src/hank/schema/index.ts";
import { FAKE_CLOCK_START, hankOf, scriptedCodon, startHankForTest } from "../../src/testing/index.ts";
import { infos, lifecycle } from "./support.ts";

const SERVER_503 = "API Error: 503 Service Unavailable";
const at = (ms: number): string => new Date(FAKE_CLOCK_START + ms).toISOString();

function startRetrying(script: string, retryConfig: CodonInput["retryConfig"], signal?: AbortSignal) {
  return startHankForTest({
    hank: hankOf([scriptedCodon("a", script, { onFailure: "retry", retryConfig })]),
    ...(signal !== undefined && { signal }),
  });
}

describe("retries with backoff on the fake clock", () => {
  it("waits delayMs, then twice that, before attempts 2 and 3", async (t) => {
    const running = startRetrying(`@fail attempts=1,2 ${SERVER_503}\n@say ok`, {
      maxAttempts: 3,
      delayMs: 1000,
      maxDelayMs: 60_000,
    });
    t.after(running.remove);
    const first = await running.clock.nextTimer((timer) => timer.delayMs === 1000);
    // Parked in the backoff: attempt 2 has not started, and time has not moved.
    assert.deepEqual(lifecycle(running.events), ["started a", "completed a failed"]);
    assert.equal(first.dueAt, FAKE_CLOCK_START + 1000);
    running.clock.advance(1000);
    await running.clock.advanceToNext((timer) => timer.delayMs === 2000);
    const run = await running.done;
    assert.deepEqual(infos(run.events), [
      `Retrying codon a (attempt 2 of 3) in 1000ms: API server error: ${SERVER_503}`,
      `Retrying codon a (attempt 3 of 3) in 2000ms: API server error: ${SERVER_503}`,
    ]);
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.attempt, s.startTime]),
      [
        [1, at(0)],
        [2, at(1000)],
        [3, at(3000)],
      ],
    );
    assert.deepEqual(
      run.data("codon.completed").map((c) => [c.attempt, c.success]),
      [
        [1, false],
        [2, false],
        [3, true],
      ],
    );
    assert.equal(run.result.status, "completed");
    assert.deepEqual(run.clock.pending(), []);
  });

  it("caps the growing wait at maxDelayMs", async (t) => {
    const running = startRetrying(`@fail attempts=1,2 ${SERVER_503}`, {
      maxAttempts: 3,
      delayMs: 1000,
      maxDelayMs: 1500,
    });
    t.after(running.remove);
    await running.clock.advanceToNext((timer) => timer.delayMs === 1000);
    await running.clock.advanceToNext((timer) => timer.delayMs === 1500);
    const run = await running.done;
    assert.deepEqual(
      infos(run.events).map((m) => m.slice(0, m.indexOf(":"))),
      ["Retrying codon a (attempt 2 of 3) in 1000ms", "Retrying codon a (attempt 3 of 3) in 1500ms"],
    );
    assert.equal(run.result.exitCode, 0);
  });

  it("waits as long as the provider's Retry-After hint says, not the computed backoff", async (t) => {
    const error = "429 rate_limit_error: too many requests, retry after 30s";
    const running = startRetrying(`@fail attempts=1 ${error}\n@say ok`, {
      maxAttempts: 2,
      delayMs: 1000,
      maxDelayMs: 60_000,
    });
    t.after(running.remove);
    const hinted = await running.clock.nextTimer((timer) => timer.delayMs === 30_000);
    assert.deepEqual(running.clock.pending(), [hinted]);
    running.clock.advance(29_999);
    assert.deepEqual(lifecycle(running.events), ["started a", "completed a failed"]);
    running.clock.advance(1);
    const run = await running.done;
    const [failed] = run.data("codon.completed");
    assert.deepEqual(failed?.failureReason?.retryAfterMs, 30_000);
    assert.deepEqual(failed?.failureReason?.type, "rate-limit");
    assert.deepEqual(infos(run.events), [
      `Retrying codon a (attempt 2 of 2) in 30000ms: ${failed?.failureReason?.message}`,
    ]);
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.attempt, s.startTime]),
      [
        [1, at(0)],
        [2, at(30_000)],
      ],
    );
    assert.equal(run.result.exitCode, 0);
  });

  it("a cancel during the backoff ends the run aborted without another attempt", async (t) => {
    const controller = new AbortController();
    const running = startRetrying(
      `@fail ${SERVER_503}`,
      { maxAttempts: 3, delayMs: 5000, maxDelayMs: 5000 },
      controller.signal,
    );
    t.after(running.remove);
    await running.clock.nextTimer((timer) => timer.delayMs === 5000);
    controller.abort();
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode, message: run.result.message },
      { status: "aborted", exitCode: 0, message: "Run cancelled" },
    );
    assert.deepEqual(run.clock.pending(), []);
  });
});
