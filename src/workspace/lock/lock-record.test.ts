import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { judgeLock, type LockRecord, parseLockRecord, serializeLockRecord } from "./lock-record.ts";

const NOW = Date.parse("2025-01-15T10:30:00.000Z");
const record: LockRecord = {
  pid: 500,
  runId: "run-1",
  startedAt: "2025-01-15T10:00:00.000Z",
  heartbeatAt: "2025-01-15T10:29:30.000Z",
  hostname: "box",
};
const facts = { now: NOW, ourPid: 900, ourHostname: "box", staleAfterMs: 120_000, isPidAlive: () => true };

describe("judgeLock", () => {
  it("is live while the process runs and the heartbeat is at most 2 minutes old", () => {
    assert.deepEqual(judgeLock(record, facts), { status: "live" });
    const edge = { ...record, heartbeatAt: "2025-01-15T10:28:00.000Z" };
    assert.deepEqual(judgeLock(edge, facts), { status: "live" });
  });

  it("is stale when the process is gone or the heartbeat is older than 2 minutes", () => {
    assert.deepEqual(judgeLock(record, { ...facts, isPidAlive: () => false }), {
      status: "stale",
      reason: "process 500 is not running",
    });
    const old = { ...record, heartbeatAt: "2025-01-15T10:27:00.000Z" };
    assert.deepEqual(judgeLock(old, facts), { status: "stale", reason: "no heartbeat for 180 s" });
  });

  it("judges a lock from another host by its heartbeat alone", () => {
    const remote = { ...record, hostname: "elsewhere" };
    const noPidCheck = () => {
      throw new Error("must not check a remote PID");
    };
    assert.deepEqual(judgeLock(remote, { ...facts, isPidAlive: noPidCheck }), { status: "live" });
    const old = { ...remote, heartbeatAt: "2025-01-15T10:00:00.000Z" };
    assert.deepEqual(judgeLock(old, { ...facts, isPidAlive: noPidCheck }), {
      status: "stale",
      reason: "no heartbeat for 1800 s",
    });
  });

  it("treats our own PID on our host as reused, and unreadable records as stale", () => {
    assert.deepEqual(judgeLock({ ...record, pid: 900 }, facts), {
      status: "stale",
      reason: "PID 900 is this process",
    });
    assert.deepEqual(judgeLock(null, facts), { status: "stale", reason: "the lock file is unreadable" });
    assert.deepEqual(judgeLock({ ...record, heartbeatAt: "soon" }, facts), {
      status: "stale",
      reason: "the lock has no valid heartbeat time",
    });
  });
});

describe("lock record text", () => {
  it("round-trips and rejects what is not a lock record", () => {
    assert.deepEqual(parseLockRecord(serializeLockRecord({ ...record, port: 8080 })), {
      ...record,
      port: 8080,
    });
    assert.equal(parseLockRecord(""), null);
    assert.equal(parseLockRecord('{"pid":"500"}'), null);
  });
});
