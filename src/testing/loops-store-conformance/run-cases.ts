import assert from "node:assert/strict";
import { IllegalTransitionError } from "../../loops/model/state-table.ts";
import { LeaseLostError, StaleStateError } from "../../loops/store/loop-store.ts";
import type { LoopStoreCase } from "./store-cases.ts";
import { admitted, newRun, T0 } from "./store-fixture.ts";

/** Admission, idempotency, concurrency, leases with fencing, transitions and queue promotion. */
export const RUN_CASES: readonly LoopStoreCase[] = [
  {
    id: "admit-duplicate",
    title: "a second start with the same key returns the existing run as a duplicate",
    async run({ store }) {
      const first = await admitted(store, newRun("r1", "demo", "key-1"));
      assert.equal(first.state, "running");
      const again = await store.admitRun(newRun("r2", "demo", "key-1"), {
        concurrency: "allow",
        initial: "running",
      });
      assert.equal(again.kind, "duplicate");
      assert.equal(again.kind === "duplicate" && again.run.id, "r1");
      assert.equal(await store.getRun("r2"), undefined);
      assert.equal((await store.findRunByKey("demo", "key-1"))?.id, "r1");
    },
  },
  {
    id: "concurrency",
    title: "forbid refuses while a sibling is live, queue defers, allow starts; other loops are independent",
    async run({ store }) {
      await admitted(store, newRun("a1"));
      const refused = await store.admitRun(newRun("a2"), { concurrency: "forbid", initial: "running" });
      assert.equal(refused.kind, "refused");
      assert.equal(refused.kind === "refused" && refused.liveRunId, "a1");
      const queued = await store.admitRun(newRun("a3"), { concurrency: "queue", initial: "running" });
      assert.equal(queued.kind === "admitted" && queued.run.state, "queued");
      const other = await store.admitRun(newRun("b1", "other"), {
        concurrency: "forbid",
        initial: "watching",
      });
      assert.equal(other.kind === "admitted" && other.run.state, "watching");
    },
  },
  {
    id: "lease-fencing",
    title: "one lease holder at a time; a new lease fences every write of the old holder",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const first = await store.acquireLease("r", "driver-a", 1000, 10_000);
      assert.equal(typeof first, "number");
      assert.equal(await store.acquireLease("r", "driver-b", 2000, 10_000), null);
      const stolen = await store.acquireLease("r", "driver-b", 2000, 10_000, "driver-a");
      assert.ok(stolen !== null && first !== null && stolen > first);
      await assert.rejects(
        store.appendEvent("r", first ?? 0, "watch.disarmed", { why: "fenced" }, T0),
        LeaseLostError,
      );
      await assert.rejects(
        store.transition("r", first ?? 0, { from: "running", to: "paused", via: "operator_pause", at: T0 }),
        LeaseLostError,
      );
      assert.equal(await store.renewLease("r", first ?? 0, 3000, 10_000), false);
      assert.equal(await store.renewLease("r", stolen ?? 0, 3000, 10_000), true);
      const expired = await store.acquireLease("r", "driver-c", 14_000, 10_000);
      assert.ok(expired !== null && stolen !== null && expired > stolen);
      await store.releaseLease("r", expired ?? 0);
      assert.equal((await store.getRun("r"))?.leaseOwner, null);
    },
  },
  {
    id: "acquire-leases",
    title:
      "several leases in one call: free and expired ones granted, a live holder's refused, a dead one's taken",
    async run({ store }) {
      for (const id of ["free", "held", "expired", "dead"]) await admitted(store, newRun(id));
      const held = await store.acquireLease("held", "other", 1000, 10_000);
      await store.acquireLease("expired", "other", 1000, 500);
      const dead = await store.acquireLease("dead", "gone", 1000, 10_000);
      const granted = await store.acquireLeases(
        [
          { runId: "free", owner: "d1" },
          { runId: "held", owner: "d2" },
          { runId: "expired", owner: "d3" },
          { runId: "dead", owner: "d4", takeOverFrom: "gone" },
          { runId: "missing", owner: "d5" },
        ],
        2000,
        10_000,
      );
      assert.deepEqual([...granted.keys()].sort(), ["dead", "expired", "free"]);
      assert.ok(dead !== null && (granted.get("dead") ?? 0) > dead);
      assert.equal((await store.getRun("held"))?.leaseOwner, "other");
      assert.equal((await store.getRun("dead"))?.leaseOwner, "d4");
      assert.equal(await store.renewLease("held", held ?? 0, 3000, 10_000), true);
      assert.equal(await store.renewLease("dead", dead ?? 0, 3000, 10_000), false);
      assert.equal((await store.acquireLeases([], 4000, 10_000)).size, 0);
    },
  },
  {
    id: "transition",
    title: "a transition is checked against the table and the stored state, with its events and effects",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      await assert.rejects(
        store.transition("r", token, { from: "running", to: "done", via: "clean_tick", at: T0 }),
        IllegalTransitionError,
      );
      await assert.rejects(
        store.transition("r", token, { from: "paused", to: "running", via: "resumed", at: T0 }),
        StaleStateError,
      );
      const parked = await store.transition("r", token, {
        from: "running",
        to: "needs-approval",
        via: "budget_escalated",
        at: "2026-01-01T01:00:00.000Z",
        events: [{ type: "watch.disarmed", data: { why: "tokens" } }],
        effects: [{ deliveryId: "r:park:1", payload: { state: "needs-approval" } }],
      });
      assert.equal(parked.state, "needs-approval");
      assert.equal(parked.parkReason, "budget_escalated");
      assert.equal(parked.stateSince, "2026-01-01T01:00:00.000Z");
      const effects = await store.pendingEffects();
      assert.deepEqual(
        effects.map((e) => e.deliveryId),
        ["r:park:1"],
      );
      const types = (await store.events(0, "r")).map((e) => e.type);
      assert.deepEqual(types, ["run.admitted", "run.state", "watch.disarmed"]);
      const ended = await store.transition("r", token, {
        from: "needs-approval",
        to: "blocked",
        via: "human_rejected",
        at: T0,
      });
      assert.equal(ended.cause, "human_rejected");
      assert.equal(ended.endedAt, T0);
      assert.equal(ended.parkReason, null);
    },
  },
  {
    id: "pause-resume",
    title: "a paused run remembers where it was paused from",
    async run({ store }) {
      await store.admitRun(newRun("w"), { concurrency: "allow", initial: "watching" });
      const token = (await store.acquireLease("w", "d", 0, 10_000)) ?? 0;
      const paused = await store.transition("w", token, {
        from: "watching",
        to: "paused",
        via: "operator_pause",
        at: T0,
      });
      assert.equal(paused.pausedFrom, "watching");
      const resumed = await store.transition("w", token, {
        from: "paused",
        to: "watching",
        via: "resumed",
        at: T0,
      });
      assert.equal(resumed.pausedFrom, null);
    },
  },
  {
    id: "queue-promotion",
    title: "a terminal run promotes its loop's oldest queued run, FIFO, in the same transaction",
    async run({ store }) {
      await admitted(store, newRun("q0", "demo", "k0", "2026-01-01T00:00:00.000Z"));
      for (const [id, at] of [
        ["q1", "2026-01-01T00:00:01.000Z"],
        ["q2", "2026-01-01T00:00:02.000Z"],
      ] as const) {
        const result = await store.admitRun(newRun(id, "demo", id, at), {
          concurrency: "queue",
          initial: "running",
        });
        assert.equal(result.kind === "admitted" && result.run.state, "queued");
      }
      const token = (await store.acquireLease("q0", "d", 0, 10_000)) ?? 0;
      await store.transition("q0", token, { from: "running", to: "done", via: "gates_passed", at: T0 });
      assert.equal((await store.getRun("q1"))?.state, "running");
      assert.equal((await store.getRun("q2"))?.state, "queued");
      const live = await store.listRuns({ loopId: "demo", live: true });
      assert.deepEqual(live.map((r) => r.id).sort(), ["q1", "q2"]);
    },
  },
  {
    id: "live-run-leases",
    title: "live run leases list live runs oldest first, with their lease and whether commands wait",
    async run({ store }) {
      await admitted(store, newRun("later", "b", "later", "2026-01-01T00:00:05.000Z"));
      await admitted(store, newRun("first", "a", "first", "2026-01-01T00:00:01.000Z"));
      await admitted(store, newRun("ended", "c", "ended", "2026-01-01T00:00:00.000Z"));
      const ended = (await store.acquireLease("ended", "d", 0, 10_000)) ?? 0;
      await store.transition("ended", ended, { from: "running", to: "done", via: "gates_passed", at: T0 });
      const token = (await store.acquireLease("first", "d", 0, 10_000)) ?? 0;
      await store.transition("first", token, {
        from: "running",
        to: "paused",
        via: "operator_pause",
        at: T0,
      });
      const command = await store.addCommand("first", { type: "resume", by: "ana" }, T0);
      const leases = await store.liveRunLeases();
      assert.deepEqual(
        leases.map((run) => [run.id, run.state, run.leaseOwner, run.leaseExpiresAt, run.commandsWaiting]),
        [
          ["first", "paused", "d", 10_000, true],
          ["later", "running", null, null, false],
        ],
      );
      assert.equal(leases[0]?.createdAt, "2026-01-01T00:00:01.000Z");
      assert.equal(leases[0]?.trigger, "manual");
      await store.settleCommand("first", token, command, "applied", T0);
      assert.equal((await store.liveRunLeases())[0]?.commandsWaiting, false);
    },
  },
];
