import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import { rollbackExecution } from "../../src/engine/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { loadValidatedHank, runExecution } from "../../src/runner/index.ts";
import { LockLostError } from "../../src/runner/lock-fence.ts";
import { withRollbackSession } from "../../src/runner/rollback-session.ts";
import { createFakeClock, type FakeClock } from "../../src/testing/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { acquireLock, type LockAcquisition, parseLockRecord } from "../../src/workspace/lock/index.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";
import { agentFile, holdRun, runOptions } from "./support.ts";

/**
 * Item: no split brain. A run is held mid-codon (its agent sleeps on a fake clock): as far as the lock
 * can tell, its process is suspended. Past the stale time another process takes the lock over. When
 * the suspended run goes on, it must notice the loss and stop: nothing more in its journal, no
 * checkpoint, no snapshot, the other process's lock left in place, and a message saying what happened.
 */

const SLEEP_MS = 60_000;
/** Longer than the lock's stale time (two minutes). */
const SUSPENDED_MS = 180_000;
const bWorking = (event: JournaledEvent) => event.type === "tool.result" && event.data.codonId === "b";

/** The message a process that lost its lock to the other process below ends with. */
const LOST_TO_OTHER =
  /lost the execution's lock while it was suspended: another process took it over \(PID 424242/;

/**
 * Another process (PID 424242) takes the lock over three minutes after `held` last looked, by its own
 * clock: the holder's heartbeat is stale. Then the holder's clock moves on (as far, unless `heldMoves`
 * says otherwise): it runs again.
 */
function takeOverWhileSuspended(
  lockPath: string,
  held: FakeClock,
  heldMoves = SUSPENDED_MS,
): LockAcquisition {
  const other = acquireLock(lockPath, {
    pid: 424242,
    runId: "other",
    clock: createFakeClock({ start: held.now() + SUSPENDED_MS }),
    isPidAlive: () => true,
  });
  assert.ok(other.ok, other.ok ? "" : other.message);
  held.advance(heldMoves);
  return other;
}

function lineCount(path: string): number {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "").length;
}

describe("a process that lost its lock while suspended stops writing", () => {
  const box = sandbox("lost-lock");
  after(() => box.remove());

  it("stops before writing anything more, and leaves the new holder's lock alone", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", { checkpointedFiles: ["**"] }),
      codon("b", `@append trail.txt b begin\n@sleep ${SLEEP_MS}\n@append trail.txt b end`),
      codon("c", "@append trail.txt c"),
    ]);
    const held = await holdRun(
      runOptions(box, hank, { execution: join(box.root, "exec") }),
      bWorking,
      SLEEP_MS,
    );
    const { layout } = held;
    const journalBefore = lineCount(layout.eventsPath);
    const stateBefore = readFileSync(layout.statePath, "utf8");

    const other = takeOverWhileSuspended(layout.lockPath, held.clock);
    const result = await held.handle.done;
    assert.equal(result.kind, "refused", JSON.stringify(result).slice(0, 300));
    assert.match(result.kind === "refused" ? result.message : "", LOST_TO_OTHER);
    assert.equal(lineCount(layout.eventsPath), journalBefore, "nothing more was journaled");
    assert.equal(readFileSync(layout.statePath, "utf8"), stateBefore, "no snapshot was written");
    assert.equal(
      readFileSync(agentFile(layout, "trail.txt"), "utf8"),
      "a\nb begin\n",
      "the agent was stopped",
    );
    const lock = parseLockRecord(readFileSync(layout.lockPath, "utf8"));
    assert.deepEqual([lock?.pid, lock?.generation], [424242, 2], "the new holder's lock is in place");
    if (other.ok) other.lock.release();
  });
});

describe("an in-process agent whose process lost the lock while suspended", () => {
  const box = sandbox("lost-lock-agent");
  after(() => box.remove());

  it("writes nothing more into the workspace, even when it acts before the heartbeat looks", async () => {
    // Woken up, the process runs its overdue timers one by one, each followed by what it resolved: the
    // agent's sleep ends and its next write starts before the heartbeat's timer runs. Here the clock
    // moves only as far as the sleep (the heartbeat is not due), past the fence's interval.
    const shortSleepMs = 1_000;
    const hank = writeHank(join(box.root, "hank"), [
      codon("b", `@append trail.txt b begin\n@sleep ${shortSleepMs}\n@append trail.txt b end`),
    ]);
    const held = await holdRun(
      runOptions(box, hank, { execution: join(box.root, "exec") }),
      bWorking,
      shortSleepMs,
    );
    const other = takeOverWhileSuspended(held.layout.lockPath, held.clock, shortSleepMs);
    const result = await held.handle.done;
    assert.match(result.kind === "refused" ? result.message : JSON.stringify(result), LOST_TO_OTHER);
    await setTimeout(200); // a write already under way lands by now
    assert.equal(
      readFileSync(agentFile(held.layout, "trail.txt"), "utf8"),
      "b begin\n",
      "the agent wrote on",
    );
    if (other.ok) other.lock.release();
  });
});

describe("a rollback that lost its lock while suspended stops writing", () => {
  const box = sandbox("lost-lock-rollback");
  after(() => box.remove());

  it("restores nothing and journals nothing once another process took the execution over", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", { checkpointedFiles: ["**"] }),
      codon("b", "@append trail.txt b", { checkpointedFiles: ["**"] }),
    ]);
    const options = runOptions(box, hank, { execution: join(box.root, "exec") });
    const ran = await runExecution(options);
    assert.equal(ran.kind === "ran" && ran.outcome, "completed", JSON.stringify(ran).slice(0, 300));
    const layout = executionLayout(options.execution ?? "");
    const loaded = loadValidatedHank({ hank, cwd: box.root, env: options.env ?? {} });
    assert.ok(loaded.ok);
    const journalBefore = lineCount(layout.eventsPath);
    const clock = createFakeClock({ start: Date.now() });

    const done = withRollbackSession({ layout, clock, listeners: [] }, async ({ line, deps }) => {
      takeOverWhileSuspended(layout.lockPath, clock); // suspended with the lock held
      const target = { kind: "codon", codonId: "a", checkpointType: "completed" } as const;
      return rollbackExecution({ hank: loaded.hank, target, autoRestart: false, line }, deps);
    });

    // The loss surfaces at the first fenced step: thrown, or as the rollback's refusal carrying it.
    const ended = await done.then(
      (result) => (result.ok && !result.value.ok ? result.value.message : JSON.stringify(result)),
      (error: unknown) => (error instanceof LockLostError ? error.message : String(error)),
    );
    assert.match(ended, LOST_TO_OTHER);
    assert.equal(lineCount(layout.eventsPath), journalBefore, "nothing was journaled");
    assert.equal(readFileSync(agentFile(layout, "trail.txt"), "utf8"), "a\nb\n", "no file was restored");
    const lock = parseLockRecord(readFileSync(layout.lockPath, "utf8"));
    assert.equal(lock?.pid, 424242, "the new holder's lock is in place");
  });
});
