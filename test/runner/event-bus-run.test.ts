import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AsyncDelivery, JournaledEvent } from "../../src/journal/index.ts";
import {
  hankOf,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../src/testing/index.ts";

const LOOP = hankOf([
  scriptedCodon("first", "@write a.txt one"),
  scriptedLoop("L", { type: "iterationLimit", limit: 3 }, [
    scriptedCodon("x", "@append log.txt x"),
    scriptedCodon("y", "@append log.txt y"),
  ]),
]);

function shape(events: readonly JournaledEvent[]): string[] {
  return events.filter((e) => e.type !== "error").map((e) => `${e.seq} ${e.type}`);
}

describe("the event bus of a run", () => {
  it("a throwing and a slow subscriber change nothing in the run; the failure is journaled once", async () => {
    const baseline = await runHankForTest({ hank: LOOP });
    const running = startHankForTest({ hank: LOOP });
    running.bus.subscribe(() => {
      throw new Error("listener bug");
    });
    const slowSeen: number[] = [];
    let seenWhenTheRunEnded: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    running.bus.subscribe(
      async (delivery: AsyncDelivery) => {
        if ("seq" in delivery) slowSeen.push(delivery.seq);
        await gate;
      },
      { mode: "async", fromSeq: 0 },
    );
    running.bus.subscribe((event) => {
      if (event.type !== "state.transition" || event.data.transitionType !== "RunCompleted") return;
      seenWhenTheRunEnded = [...slowSeen];
      release();
    });
    const run = await running.done;
    try {
      assert.equal(run.result.status, "completed");
      assert.deepEqual(
        run.state.codons.map((c) => `${c.id} ${c.status}`),
        baseline.state.codons.map((c) => `${c.id} ${c.status}`),
      );
      const warnings = run.data("error").filter((d) => d.severity === "warning");
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]?.message ?? "", /listener bug/);
      assert.deepEqual(
        seenWhenTheRunEnded,
        [1],
        "the slow subscriber held its first event; nothing waited on it",
      );
      assert.deepEqual(
        slowSeen,
        run.events.map((e) => e.seq),
        "once released, it received every event, in order",
      );
    } finally {
      run.remove();
      baseline.remove();
    }
  });

  it("a subscriber attached mid-run catches up from the journal and sees every event once, in order", async () => {
    const running = startHankForTest({ hank: LOOP });
    const seen: JournaledEvent[] = [];
    let attached = false;
    // Attach once the loop has started, from inside the run (a face connecting mid-run).
    running.bus.subscribe((event) => {
      if (attached || event.type !== "codon.completed" || event.data.codonId !== "x#1") return;
      attached = true;
      running.bus.subscribe((late) => seen.push(late), { fromSeq: 0 });
    });
    const run = await running.done;
    try {
      assert.equal(attached, true);
      assert.deepEqual(shape(seen), shape(run.events));
      assert.deepEqual(
        seen.map((e) => e.seq),
        run.events.map((e) => e.seq),
      );
    } finally {
      run.remove();
    }
  });

  it("readSince reads the journal's events after a sequence number", async () => {
    const run = await runHankForTest({ hank: LOOP });
    const running = startHankForTest({ hank: LOOP, continueFrom: run });
    const after = running.bus.readSince(run.events.length - 3);
    const done = await running.done;
    try {
      assert.deepEqual(
        after.slice(0, 3).map((e) => e.seq),
        run.events.slice(-3).map((e) => e.seq),
      );
      assert.equal(after[3]?.type, "state.transition", "then the continuation's RunStarted");
    } finally {
      done.remove();
    }
  });
});
