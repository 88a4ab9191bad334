import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { describe, it } from "node:test";
import type { Checkpointer } from "../checkpoint/checkpointer.ts";
import { createMemoryCheckpointer } from "../checkpoint/memory/memory-checkpointer.ts";
import type { LockCheck, RuntimeLock } from "../workspace/lock/index.ts";
import { CHECK_INTERVAL_MS, createLockFence, fencedCheckpointer, LockLostError } from "./lock-fence.ts";

/** A lock whose disk state the test decides, counting the reads. */
function stubLock(): { lock: RuntimeLock; reads: () => number; takeOver: () => void } {
  let held: LockCheck = { held: true };
  let reads = 0;
  const lock: RuntimeLock = {
    path: "/x/runtime.lock",
    generation: 3,
    current: () => ({ pid: 1, runId: "r", startedAt: "", heartbeatAt: "", hostname: "h", generation: 3 }),
    stillHeld: () => {
      reads++;
      return held;
    },
    setPort: () => undefined,
    setRunId: () => undefined,
    release: () => "released",
  };
  const holder = { pid: 2, runId: "t", startedAt: "", heartbeatAt: "", hostname: "h", generation: 4 };
  return { lock, reads: () => reads, takeOver: () => (held = { held: false, holder }) };
}

describe("the lock fence", () => {
  it("reads the lock only when the last confirmation is old, and stops every write once it is lost", () => {
    let now = 1_000_000;
    const stub = stubLock();
    let lostCalls = 0;
    const fence = createLockFence(stub.lock, { now: () => now }, () => lostCalls++);
    fence.check();
    now += CHECK_INTERVAL_MS - 1;
    fence.check();
    assert.equal(stub.reads(), 0, "no read within the interval");
    stub.takeOver();
    now += 180_000; // suspended for three minutes
    assert.throws(
      () => fence.check(),
      (error) => {
        assert.ok(error instanceof LockLostError);
        assert.match(error.message, /another process took it over \(PID 2 on h, generation 4\)/);
        return true;
      },
    );
    assert.equal(stub.reads(), 1);
    assert.throws(() => fence.check(), LockLostError, "lost stays lost, without reading again");
    assert.equal(stub.reads(), 1);
    assert.equal(lostCalls, 1);
  });

  it("reads the lock when the clock went back, and takes a loss the heartbeat found", () => {
    let now = 1_000_000;
    const stub = stubLock();
    const fence = createLockFence(stub.lock, { now: () => now }, () => undefined);
    now -= 5;
    fence.check();
    assert.equal(stub.reads(), 1);
    fence.markLost(null);
    assert.throws(() => fence.check(), /its lock file \/x\/runtime\.lock was removed while the run held it/);
    assert.equal(fence.lost, true);
  });
});

describe("the fenced checkpointer", () => {
  it("closes the store while the lock is held, and only releases it once the lock is lost", async () => {
    const calls: string[] = [];
    const inner: Checkpointer = {
      ...createMemoryCheckpointer({ workTree: tmpdir(), clock: { now: () => 0 } }),
      close: async () => {
        calls.push("close");
      },
      release: () => {
        calls.push("release");
      },
    };
    let now = 1_000_000;
    const held = stubLock();
    await fencedCheckpointer(
      inner,
      createLockFence(held.lock, { now: () => now }, () => undefined),
    ).close?.();
    assert.deepEqual(calls, ["close"]);
    const lost = stubLock();
    const fence = createLockFence(lost.lock, { now: () => now }, () => undefined);
    lost.takeOver();
    now += 180_000;
    await fencedCheckpointer(inner, fence).close?.();
    assert.deepEqual(calls, ["close", "release"], "no packing by a process that lost the lock");
  });
});
