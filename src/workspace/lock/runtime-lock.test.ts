import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { type LockRecord, parseLockRecord } from "./lock-record.ts";
import { isProcessAlive } from "./process-liveness.ts";
import { acquireLock, type HeartbeatProblem, inspectLock, type LockClock } from "./runtime-lock.ts";

const root = mkdtempSync(join(tmpdir(), "hw-lock-"));
after(() => rmSync(root, { recursive: true, force: true }));

const START = Date.parse("2025-01-15T10:30:00.000Z");
const HOST = hostname();

interface FakeClock extends LockClock {
  advance(ms: number): void;
  pending(): number;
}

/** Timers fire in order of due time as `advance` moves the clock; nothing runs on its own. */
function fakeClock(start = START): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return { id };
    },
    clearTimeout(handle) {
      timers.delete(handle.id);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}

let counter = 0;
function lockPath(): string {
  const dir = join(root, `exec-${counter++}`, ".hankweave");
  return join(dir, "runtime.lock");
}

function onDisk(path: string): LockRecord | null {
  return parseLockRecord(readFileSync(path, "utf8"));
}

/**
 * Whether a PID exists, whatever its start time: the locks here carry the fake clock's 2025 times,
 * which say nothing about when real processes (the parent, holding a "live" lock) started.
 */
const pidExists = (pid: number): boolean => isProcessAlive(pid);

/** Writes a lock as another process would have left it. */
function foreign(path: string, record: Partial<LockRecord>): LockRecord {
  const full: LockRecord = {
    pid: process.ppid,
    runId: "run-other",
    startedAt: "2025-01-15T10:00:00.000Z",
    heartbeatAt: "2025-01-15T10:29:40.000Z",
    hostname: HOST,
    ...record,
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(full));
  return full;
}

/** A PID that certainly belonged to a process that has exited. */
function deadPid(): number {
  const { NODE_EXTRA_CA_CERTS: _skip, ...env } = process.env;
  const child = spawnSync(process.execPath, ["-e", ""], { env });
  if (child.pid === undefined) throw new Error("could not spawn a child");
  return child.pid;
}

describe("acquireLock", () => {
  it("creates the lock with pid, runId, times and hostname, and leaves no temp file", () => {
    const path = lockPath();
    const clock = fakeClock();
    const taken = acquireLock(path, { pid: 4242, runId: "run-a", clock, hostname: "box" });
    assert.equal(taken.ok && taken.staleFrom, undefined);
    assert.deepEqual(onDisk(path), {
      pid: 4242,
      runId: "run-a",
      startedAt: "2025-01-15T10:30:00.000Z",
      heartbeatAt: "2025-01-15T10:30:00.000Z",
      hostname: "box",
      generation: 1,
    });
    assert.deepEqual(readdirSync(join(path, "..")), ["runtime.lock", "runtime.lock.generation"]);
    if (taken.ok) taken.lock.release();
  });

  it("rewrites the heartbeat every 30 s on the injected clock", () => {
    const path = lockPath();
    const clock = fakeClock();
    const taken = acquireLock(path, { pid: 4242, runId: "run-a", clock, hostname: "box" });
    clock.advance(29_999);
    assert.equal(onDisk(path)?.heartbeatAt, "2025-01-15T10:30:00.000Z");
    clock.advance(1);
    assert.equal(onDisk(path)?.heartbeatAt, "2025-01-15T10:30:30.000Z");
    clock.advance(60_000);
    assert.equal(onDisk(path)?.heartbeatAt, "2025-01-15T10:31:30.000Z");
    assert.equal(onDisk(path)?.startedAt, "2025-01-15T10:30:00.000Z");
    assert.deepEqual(readdirSync(join(path, "..")), ["runtime.lock", "runtime.lock.generation"]);
    if (taken.ok) taken.lock.release();
  });

  it("refuses a live lock, naming its PID and how to proceed", () => {
    const path = lockPath();
    const holder = foreign(path, {});
    const taken = acquireLock(path, { pid: 4242, runId: "run-b", clock: fakeClock(), isPidAlive: pidExists });
    assert.deepEqual(taken, {
      ok: false,
      holder,
      message:
        `This execution is in use by another hankweave process: PID ${process.ppid} on ${HOST}, run run-other, ` +
        `started 2025-01-15T10:00:00.000Z, last heartbeat 20 s ago (lock: ${path}).\n` +
        `Wait for it to finish, watch it with --attach, or stop it (e.g. kill ${process.ppid}) and run again. ` +
        "A lock whose process is gone, or whose heartbeat is older than 2 minutes, is taken over automatically.",
    });
    assert.deepEqual(onDisk(path), holder);
  });

  it("takes over a lock whose process is dead and reports the crashed run", () => {
    const path = lockPath();
    const pid = deadPid();
    foreign(path, { pid, runId: "run-crashed" });
    const taken = acquireLock(path, { pid: 4242, runId: "run-c", clock: fakeClock() });
    assert.equal(taken.ok, true);
    assert.deepEqual(taken.ok && taken.staleFrom, {
      pid,
      runId: "run-crashed",
      startedAt: "2025-01-15T10:00:00.000Z",
      heartbeatAt: "2025-01-15T10:29:40.000Z",
      reason: `process ${pid} is not running`,
    });
    assert.equal(onDisk(path)?.runId, "run-c");
    assert.deepEqual(readdirSync(join(path, "..")), ["runtime.lock", "runtime.lock.generation"]);
  });

  it("takes over a lock whose heartbeat is older than 2 minutes even if the PID exists", () => {
    const path = lockPath();
    foreign(path, { heartbeatAt: "2025-01-15T10:27:00.000Z" });
    const taken = acquireLock(path, { pid: 4242, runId: "run-d", clock: fakeClock() });
    assert.equal(taken.ok && taken.staleFrom?.reason, "no heartbeat for 180 s");
  });

  it("takes over an unreadable lock without naming a crashed run", () => {
    const path = lockPath();
    foreign(path, {});
    writeFileSync(path, '{"pid":');
    const taken = acquireLock(path, { pid: 4242, runId: "run-e", clock: fakeClock() });
    assert.equal(taken.ok, true);
    assert.equal(taken.ok && taken.staleFrom, undefined);
    assert.equal(onDisk(path)?.runId, "run-e");
  });

  it("records the server port once it is known", () => {
    const path = lockPath();
    const taken = acquireLock(path, { pid: 4242, runId: "run-f", clock: fakeClock(), hostname: "box" });
    if (!taken.ok) throw new Error(taken.message);
    taken.lock.setPort(51234);
    assert.equal(onDisk(path)?.port, 51234);
    assert.equal(taken.lock.current().port, 51234);
    taken.lock.release();
  });
});

describe("the lock generation (fencing token)", () => {
  it("grows with every acquisition, across a release and a takeover", () => {
    const path = lockPath();
    const clock = fakeClock();
    const first = acquireLock(path, { pid: 4242, runId: "run-1", clock, hostname: "box" });
    if (!first.ok) throw new Error(first.message);
    assert.equal(first.lock.generation, 1);
    first.lock.release();
    const second = acquireLock(path, { pid: 4242, runId: "run-2", clock, hostname: "box" });
    if (!second.ok) throw new Error(second.message);
    assert.equal(second.lock.generation, 2);
    foreign(path, { pid: deadPid(), generation: 7, hostname: "box" });
    const third = acquireLock(path, { pid: 4243, runId: "run-3", clock, hostname: "box" });
    if (!third.ok) throw new Error(third.message);
    assert.equal(third.lock.generation, 8, "one more than the stale holder's");
  });

  it("stillHeld reads the disk: a holder whose lock was taken over learns who holds it", () => {
    const path = lockPath();
    const clock = fakeClock();
    const taken = acquireLock(path, { pid: 4242, runId: "run-s", clock, hostname: "box" });
    if (!taken.ok) throw new Error(taken.message);
    assert.deepEqual(taken.lock.stillHeld(), { held: true });
    // Suspended for three minutes: another process judges the lock stale and takes it over.
    clock.advance(0);
    const later = fakeClock(START + 180_000);
    const thief = acquireLock(path, {
      pid: 5151,
      runId: "run-t",
      clock: later,
      hostname: "box",
      isPidAlive: () => true,
    });
    if (!thief.ok) throw new Error(thief.message);
    const check = taken.lock.stillHeld();
    assert.equal(check.held, false);
    assert.deepEqual(check.held === false && [check.holder?.pid, check.holder?.generation], [5151, 2]);
    assert.equal(taken.lock.release(), "not-ours");
    assert.equal(onDisk(path)?.pid, 5151);
  });
});

describe("RuntimeLock.release", () => {
  it("removes its own lock and stops the heartbeat; a second release finds nothing", () => {
    const path = lockPath();
    const clock = fakeClock();
    const taken = acquireLock(path, { pid: 4242, runId: "run-g", clock });
    if (!taken.ok) throw new Error(taken.message);
    assert.equal(clock.pending(), 1);
    assert.equal(taken.lock.release(), "released");
    assert.equal(existsSync(path), false);
    assert.equal(clock.pending(), 0);
    assert.equal(taken.lock.release(), "missing");
  });

  it("leaves a lock that someone else took over, and the heartbeat reports the loss", () => {
    const path = lockPath();
    const clock = fakeClock();
    const problems: HeartbeatProblem[] = [];
    const taken = acquireLock(path, {
      pid: 4242,
      runId: "run-h",
      clock,
      onHeartbeatProblem: (problem) => problems.push(problem),
    });
    if (!taken.ok) throw new Error(taken.message);
    const usurper: LockRecord = {
      pid: 777,
      runId: "run-usurper",
      startedAt: "2025-01-15T10:30:10.000Z",
      heartbeatAt: "2025-01-15T10:30:10.000Z",
      hostname: HOST,
    };
    writeFileSync(path, JSON.stringify(usurper));
    clock.advance(30_000);
    assert.deepEqual(problems, [{ kind: "lost", holder: usurper }]);
    assert.equal(clock.pending(), 0);
    assert.equal(taken.lock.release(), "not-ours");
    assert.deepEqual(onDisk(path), usurper);
  });
});

describe("inspectLock", () => {
  it("reports free, live and stale without changing anything", () => {
    const path = lockPath();
    assert.deepEqual(inspectLock(path, { pid: 1, now: START }), { status: "free" });
    const holder = foreign(path, {});
    const live = inspectLock(path, { pid: 1, now: START, isPidAlive: pidExists });
    assert.equal(live.status, "live");
    assert.deepEqual(inspectLock(path, { pid: 1, now: START, isPidAlive: () => false }), {
      status: "stale",
      holder,
      reason: `process ${process.ppid} is not running`,
    });
    assert.deepEqual(onDisk(path), holder);
  });
});
