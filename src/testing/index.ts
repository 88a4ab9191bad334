/**
 * The public test kit, `hankweave/testing`: run hanks on the offline scripted agent under a fake clock
 * and assert on the journal they produce. Deterministic by construction: time moves only when the test
 * advances it, and ids count up from 1 (`run-1`, sessions `s-1`, events `e-1`).
 *
 * ```ts
 * import { hankOf, runHankForTest, scriptedCodon } from "hankweave/testing";
 *
 * const run = await runHankForTest({ hank: hankOf([scriptedCodon("a", "@write out.txt hi")]) });
 * assert.equal(run.result.status, "completed");
 * assert.deepEqual(run.data("codon.completed").map((c) => c.codonId), ["a"]);
 * run.remove();
 * ```
 *
 * Time: for idle timeouts, retry backoff and time budgets, start the run with `startHankForTest`, wait
 * for the engine to catch up (`waitForEvent`) and for the timer (`clock.nextTimer`), advance the clock,
 * then await `done`:
 *
 * ```ts
 * const running = startHankForTest({ hank: hankOf([scriptedCodon("a", "@say hi\n@sleep 60000", { shimIdleTimeout: 5 })]) });
 * await running.waitForEvent("assistant.action");
 * await running.clock.nextTimer((t) => t.delayMs === 60_000);
 * running.clock.advance(5_000); // the idle timeout fires
 * const run = await running.done;
 * ```
 *
 * Restarts: `continueFrom: run` continues an earlier test run in the same workspace and journal.
 */
export * from "./checkpoint-conformance/index.ts";
export { countingIds } from "./counting-ids.ts";
export * from "./event-store-conformance/index.ts";
export type { FakeClock, FakeClockOptions, PendingTimer, TimerMatcher } from "./fake-clock.ts";
export { createFakeClock, FAKE_CLOCK_START } from "./fake-clock.ts";
export * from "./fake-providers/index.ts";
export { hankOf, scriptedCodon, scriptedLoop } from "./hank-builders.ts";
export * from "./harness-conformance/index.ts";
export * from "./loops-store-conformance/index.ts";
export * from "./otlp-receiver/index.ts";
export type { PreparedHank, PrepareHankInput, TestHankLayout } from "./prepare-test-hank.ts";
export { prepareTestHank } from "./prepare-test-hank.ts";
export type { HankTestOptions, HankTestRun, RunningHankTest } from "./run-hank-for-test.ts";
export { runHankForTest, startHankForTest } from "./run-hank-for-test.ts";
