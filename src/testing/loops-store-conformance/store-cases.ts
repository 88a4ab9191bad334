import assert from "node:assert/strict";
import { isLoopEvent, type LoopEventType } from "../../events/loop-events.ts";
import { ZERO_METERS } from "../../loops/model/budgets.ts";
import type { LoopStore } from "../../loops/store/loop-store.ts";
import { LOOP_EVENT_SAMPLES } from "./loop-event-samples.ts";
import { admitted, generation, newRun, T0 } from "./store-fixture.ts";

const STARTED = { number: 1, key: "r1:g1", inbox: [] };

export interface LoopStoreFixture {
  readonly store: LoopStore;
  readonly dir: string;
  /** Closes the store and opens it again on the same data (durability cases only). */
  reopen(): Promise<LoopStore>;
}

export interface LoopStoreCase {
  readonly id: string;
  readonly title: string;
  run(fixture: LoopStoreFixture): Promise<void>;
}

/** Generations, meters, the inbox, commands, the event log, effects, cursors, retention. */
export const LOG_CASES: readonly LoopStoreCase[] = [
  {
    id: "generations",
    title: "generations are upserted by number and read back in order",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      await store.putGeneration(token, generation("r", 2));
      await store.putGeneration(token, generation("r", 1));
      await store.putGeneration(
        token,
        generation("r", 1, { state: "completed", tokens: 12, endedAt: T0, readMessages: [3] }),
      );
      const all = await store.generations("r");
      assert.deepEqual(
        all.map((g) => [g.number, g.state]),
        [
          [1, "completed"],
          [2, "running"],
        ],
      );
      assert.equal(all[0]?.tokens, 12);
      assert.deepEqual(all[0]?.readMessages, [3]);
      assert.deepEqual(
        (await store.generations("r", 2)).map((g) => g.number),
        [2],
        "from a number on",
      );
      await store.updateMeters("r", token, { meters: { ...ZERO_METERS, tokens: 12, generations: 1 } });
      assert.equal((await store.getRun("r"))?.meters.tokens, 12);
    },
  },
  {
    id: "inbox",
    title: "messages are ordered and attributed; marking read records the generation once",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      const a = await store.addMessage({
        runId: "r",
        kind: "operator_note",
        author: "ana",
        text: "also check docs",
        createdAt: T0,
      });
      const b = await store.addMessage({
        runId: "r",
        kind: "gate_blocker",
        author: "gate:tests",
        text: "B-1",
        createdAt: T0,
      });
      assert.ok(b > a);
      await store.markRead("r", token, [a], 2);
      await store.markRead("r", token, [a], 3);
      const messages = await store.messages("r");
      assert.deepEqual(
        messages.map((m) => [m.id, m.author, m.readByGeneration]),
        [
          [a, "ana", 2],
          [b, "gate:tests", null],
        ],
      );
    },
  },
  {
    id: "commands",
    title: "commands wait until the driver settles them, oldest first",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      const pause = await store.addCommand("r", { type: "pause", by: "ana" }, T0);
      await store.addCommand("r", { type: "approve", by: "bo", add: 5000, comment: "ok" }, T0);
      const pending = await store.pendingCommands("r");
      assert.deepEqual(
        pending.map((c) => c.type),
        ["pause", "approve"],
      );
      assert.equal(pending[1]?.add, 5000);
      await store.settleCommand("r", token, pause, "applied", T0);
      assert.deepEqual(
        (await store.pendingCommands("r")).map((c) => c.type),
        ["approve"],
      );
    },
  },
  {
    id: "events-after",
    title: "the event log is read after any sequence number, per run or for all",
    async run({ store }) {
      await admitted(store, newRun("r1"));
      await admitted(store, newRun("r2", "other"));
      const t1 = (await store.acquireLease("r1", "d", 0, 10_000)) ?? 0;
      const seq = await store.appendEvent("r1", t1, "generation.started", STARTED, T0);
      const after = await store.events(seq - 1);
      assert.deepEqual(
        after.map((e) => e.type),
        ["generation.started"],
      );
      assert.deepEqual(after[0]?.data, STARTED);
      assert.equal((await store.events(0)).length, 3);
      assert.equal((await store.events(0, "r2")).length, 1);
    },
  },
  {
    id: "event-log-kinds",
    title: "every kind of the event log is read back as it was written, typed by its kind",
    async run({ store }) {
      await admitted(store, newRun("r1"));
      const token = (await store.acquireLease("r1", "d", 0, 10_000)) ?? 0;
      const kinds = Object.keys(LOOP_EVENT_SAMPLES) as LoopEventType[];
      for (const type of kinds) await store.appendEvent("r1", token, type, LOOP_EVENT_SAMPLES[type], T0);
      const read = (await store.events(0, "r1")).slice(1);
      assert.deepEqual(
        read.map((e) => ({ type: e.type, data: e.data })),
        kinds.map((type) => ({ type, data: LOOP_EVENT_SAMPLES[type] })),
      );
      const ended = read.find(isLoopEvent("run.ended"));
      assert.equal(ended?.data.cause, "iteration_cap");
    },
  },
  {
    id: "effects",
    title: "effects keep their delivery id; delivered ones leave the outbox, failed ones count attempts",
    async run({ store }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      const effects = [{ deliveryId: "r:end", payload: { state: "failed" } }];
      await store.transition("r", token, {
        from: "running",
        to: "failed",
        via: "operator_stop",
        at: T0,
        effects,
      });
      const [effect] = await store.pendingEffects();
      assert.equal(effect?.deliveryId, "r:end");
      await store.markEffect(effect?.id ?? 0, false, T0);
      assert.equal((await store.pendingEffects())[0]?.attempts, 1);
      await store.markEffect(effect?.id ?? 0, true, T0);
      assert.deepEqual(await store.pendingEffects(), []);
    },
  },
  {
    id: "registry-cursors-gc",
    title: "definitions and watch cursors are upserted; only terminal runs can be deleted",
    async run({ store }) {
      await store.registerLoop({
        loopId: "w",
        file: "/a.loop.toml",
        name: "W",
        kind: "watch",
        updatedAt: T0,
      });
      await store.registerLoop({
        loopId: "w",
        file: "/b.loop.toml",
        name: "W",
        kind: "watch",
        updatedAt: T0,
      });
      assert.deepEqual(
        (await store.registeredLoops()).map((l) => l.file),
        ["/b.loop.toml"],
      );
      await store.putCursor({ loopId: "w", cursor: "c1", lastSuccessAt: T0 });
      await store.putCursor({ loopId: "w", cursor: "c2", lastSuccessAt: T0 });
      assert.equal((await store.getCursor("w"))?.cursor, "c2");
      await admitted(store, newRun("r"));
      const tick = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      // A transition that carries a cursor (a watch tick) stores it in the same transaction.
      await store.transition("r", tick, {
        from: "running",
        to: "paused",
        via: "operator_pause",
        at: T0,
        cursor: { loopId: "w", cursor: "c3", lastSuccessAt: T0 },
      });
      assert.equal((await store.getCursor("w"))?.cursor, "c3");
      await store.transition("r", tick, { from: "paused", to: "running", via: "resumed", at: T0 });
      await store.releaseLease("r", tick);
      assert.equal(await store.deleteRun("r"), false);
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      await store.transition("r", token, { from: "running", to: "done", via: "gates_passed", at: T0 });
      assert.equal(await store.deleteRun("r"), true);
      assert.equal(await store.getRun("r"), undefined);
    },
  },
];

/** Everything committed survives a close and a reopen. */
export const DURABILITY_CASES: readonly LoopStoreCase[] = [
  {
    id: "reopen",
    title: "runs, generations, messages and leases survive a reopen",
    async run({ store, reopen }) {
      await admitted(store, newRun("r"));
      const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
      await store.putGeneration(token, generation("r", 1));
      await store.addMessage({ runId: "r", kind: "operator_note", author: "a", text: "x", createdAt: T0 });
      const again = await reopen();
      assert.equal((await again.getRun("r"))?.fencingToken, token);
      assert.equal((await again.generations("r")).length, 1);
      assert.equal((await again.messages("r")).length, 1);
    },
  },
];
