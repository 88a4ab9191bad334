import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { CodonInput, HankFileInput, TerminateOn } from "../hank/schema/index.ts";
import { HankFile } from "../hank/schema/index.ts";
import { applyDecision } from "./apply-decision.ts";
import { buildPlan } from "./build-plan.ts";
import { nextCodon } from "./cursor.ts";
import { decideAfterCodon } from "./decide-after-codon.ts";
import type { ExecutionPlan, LoopPlacement, PlannedCodon } from "./execution-plan.ts";
import type { LoopTerminationReason } from "./loop-end-cause.ts";
import { resolveCodon, terminateOnOf } from "./resolve-codon.ts";
import type { CodonFinish } from "./stop-rules.ts";

/** What a driver would report as `loop.iteration.completed`. */
interface IterationEvent {
  loopId: string;
  iteration: number;
  isFinal: boolean;
  terminationReason?: LoopTerminationReason;
}

interface Walk {
  order: string[];
  events: IterationEvent[];
  codonFailures: string[];
  halted?: string;
  plan: ExecutionPlan;
}

const COMPLETED: CodonFinish = { kind: "completed" };

type FinishOf = (entry: PlannedCodon) => CodonFinish;

/**
 * A minimal driver: runs the plan to its end (at most `maxSteps` codons), the finish of each codon
 * given by `finishOf`; `onStep` sees the plan after each decision.
 */
function walk(
  hank: HankFile,
  finishOf: FinishOf = () => COMPLETED,
  onStep = (_: Walk) => {},
  maxSteps = 500,
): Walk {
  let plan = buildPlan(hank);
  const finished = new Set<string>();
  const walked: Walk = { order: [], events: [], codonFailures: [], plan };
  for (let entry = nextCodon(plan, finished); entry !== undefined; entry = nextCodon(plan, finished)) {
    if (walked.order.length === maxSteps) throw new Error(`walk did not end in ${maxSteps} steps`);
    walked.order.push(entry.runtimeId);
    const terminateOn = terminateOnOf(hank, entry);
    let decision = decideAfterCodon({ entry, finish: finishOf(entry), terminateOn });
    if (decision.kind === "codon-fails") {
      walked.codonFailures.push(decision.runtimeId);
      const ignored = resolveCodon(hank, entry)?.onFailure === "ignore";
      decision = decideAfterCodon({
        entry,
        finish: { kind: ignored ? "failed-ignored" : "failed" },
        terminateOn,
      });
    }
    if (decision.kind === "next-iteration") {
      walked.events.push({ loopId: decision.loopId, iteration: decision.iteration, isFinal: false });
    }
    if (decision.kind === "loop-ends") {
      const { loopId, iteration, terminationReason } = decision;
      walked.events.push({
        loopId,
        iteration,
        isFinal: true,
        ...(terminationReason ? { terminationReason } : {}),
      });
    }
    plan = applyDecision(plan, decision);
    finished.add(entry.runtimeId);
    walked.plan = plan;
    onStep(walked);
    if (decision.kind === "halt" || (decision.kind === "loop-ends" && !decision.runContinues)) {
      walked.halted = entry.runtimeId;
      break;
    }
  }
  return walked;
}

function codon(id: string, extra: Partial<CodonInput> = {}): CodonInput {
  return {
    id,
    name: id,
    model: "scripted",
    continuationMode: "continue-previous",
    promptText: "go",
    ...extra,
  };
}

function loop(id: string, terminateOn: TerminateOn, codons: CodonInput[]): HankFileInput["hank"][number] {
  return { type: "loop", id, name: id, terminateOn, codons };
}

function hankOf(items: HankFileInput["hank"]): HankFile {
  return HankFile.parse({ hank: items });
}

const limit = (n: number): TerminateOn => ({ type: "iterationLimit", limit: n });
const CONTEXT: TerminateOn = { type: "contextExceeded" };

describe("loop scenarios", () => {
  it("runs the minimal loop fixture twice and ends with iteration_limit", () => {
    const url = new URL("../../test/fixtures/minimal-loop/hank.json", import.meta.url);
    const hank = HankFile.parse(JSON.parse(readFileSync(url, "utf8")));
    const run = walk(hank);
    assert.deepEqual(run.order, ["append-a#0", "append-b#0", "append-a#1", "append-b#1"]);
    assert.deepEqual(run.events, [
      { loopId: "append-loop", iteration: 0, isFinal: false },
      { loopId: "append-loop", iteration: 1, isFinal: true, terminationReason: "iteration_limit" },
    ]);
    assert.deepEqual(run.plan.loops, {
      "append-loop": {
        iteration: 1,
        terminated: true,
        endCause: "iteration_limit",
        terminationReason: "iteration_limit",
      },
    });
  });

  it("runs reference scenario 8: A, loop L (limit 3) of x and y, B", () => {
    const hank = hankOf([codon("A"), loop("L", limit(3), [codon("x"), codon("y")]), codon("B")]);
    const run = walk(hank);
    assert.deepEqual(run.order, ["A", "x#0", "y#0", "x#1", "y#1", "x#2", "y#2", "B"]);
    assert.deepEqual(run.events, [
      { loopId: "L", iteration: 0, isFinal: false },
      { loopId: "L", iteration: 1, isFinal: false },
      { loopId: "L", iteration: 2, isFinal: true, terminationReason: "iteration_limit" },
    ]);
    assert.equal(run.halted, undefined);
  });

  it("ends a contextExceeded loop at its first codon and drops the other two", () => {
    const hank = hankOf([loop("L", CONTEXT, [codon("a"), codon("b"), codon("c")]), codon("after")]);
    const run = walk(hank, (entry) => (entry.runtimeId === "a#1" ? { kind: "context-exceeded" } : COMPLETED));
    assert.deepEqual(run.order, ["a#0", "b#0", "c#0", "a#1", "after"]);
    assert.deepEqual(run.events, [
      { loopId: "L", iteration: 0, isFinal: false },
      { loopId: "L", iteration: 1, isFinal: true, terminationReason: "context_exceeded" },
    ]);
    assert.deepEqual(
      run.plan.entries.map((entry) => entry.runtimeId),
      ["a#0", "b#0", "c#0", "a#1", "after"],
    );
    assert.deepEqual(run.codonFailures, []);
  });

  it("ends a loop on budget exhaustion with no event terminationReason", () => {
    const hank = hankOf([loop("L", limit(5), [codon("a"), codon("b"), codon("c")]), codon("after")]);
    const run = walk(hank, (entry) =>
      entry.runtimeId === "a#0" ? { kind: "budget-exceeded", scope: "loop" } : COMPLETED,
    );
    assert.deepEqual(run.order, ["a#0", "after"]);
    assert.deepEqual(run.events, [{ loopId: "L", iteration: 0, isFinal: true }]);
    assert.deepEqual(run.plan.loops.L, { iteration: 0, terminated: true, endCause: "budget" });
  });

  it("keeps a loop going past an ignored failure", () => {
    const hank = hankOf([loop("L", limit(2), [codon("a", { onFailure: "ignore" }), codon("b")])]);
    const run = walk(hank, (entry) => (entry.configId === "a" ? { kind: "failed-ignored" } : COMPLETED));
    assert.deepEqual(run.order, ["a#0", "b#0", "a#1", "b#1"]);
    assert.equal(run.events.at(-1)?.terminationReason, "iteration_limit");
  });

  it("fails a codon on context exhaustion in an iterationLimit loop, then follows onFailure", () => {
    const items = (onFailure: "ignore" | "abort") => [
      loop("L", limit(2), [codon("a", { onFailure }), codon("b")]),
      codon("after"),
    ];
    const finish = (entry: PlannedCodon): CodonFinish =>
      entry.runtimeId === "a#0" ? { kind: "context-exceeded" } : COMPLETED;
    const ignored = walk(hankOf(items("ignore")), finish);
    assert.deepEqual(ignored.codonFailures, ["a#0"]);
    assert.deepEqual(ignored.order, ["a#0", "b#0", "a#1", "b#1", "after"]);
    const aborted = walk(hankOf(items("abort")), finish);
    assert.deepEqual(aborted.order, ["a#0"]);
    assert.equal(aborted.halted, "a#0");
    assert.deepEqual(aborted.events, [
      { loopId: "L", iteration: 0, isFinal: true, terminationReason: "failure" },
    ]);
    assert.deepEqual(
      aborted.plan.entries.map((entry) => entry.runtimeId),
      ["a#0", "b#0", "after"],
    );
  });

  it("halts on a top-level failure and fails a top-level context exhaustion", () => {
    const hank = hankOf([codon("A"), codon("B"), codon("C")]);
    const run = walk(hank, (entry) => (entry.runtimeId === "B" ? { kind: "context-exceeded" } : COMPLETED));
    assert.deepEqual(run.order, ["A", "B"]);
    assert.deepEqual(run.codonFailures, ["B"]);
    assert.equal(run.halted, "B");
  });
});

/** mulberry32: a small seeded PRNG, so a failing shape can be replayed from its seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomHank(random: () => number): HankFile {
  const pick = (n: number) => Math.floor(random() * n);
  let next = 0;
  const freshCodon = () => codon(`c${next++}`, { onFailure: random() < 0.5 ? "ignore" : "abort" });
  const items: HankFileInput["hank"] = [];
  for (let i = 0, count = 1 + pick(6); i < count; i++) {
    if (random() < 0.5) items.push(freshCodon());
    else {
      const terminateOn = random() < 0.3 ? CONTEXT : limit(1 + pick(4));
      items.push(loop(`L${i}`, terminateOn, Array.from({ length: 1 + pick(4) }, freshCodon)));
    }
  }
  return hankOf(items);
}

const FINISHES: readonly CodonFinish[] = [
  { kind: "context-exceeded" },
  { kind: "budget-exceeded", scope: "codon" },
  { kind: "budget-exceeded", scope: "loop" },
  { kind: "budget-exceeded", scope: "hank" },
  { kind: "failed-ignored" },
  { kind: "skipped" },
  { kind: "failed" },
];

function randomFinish(random: () => number): FinishOf {
  return () => (random() < 0.8 ? COMPLETED : (FINISHES[Math.floor(random() * FINISHES.length)] ?? COMPLETED));
}

/** Each loop's codons form one block; within it iterations run 0, 1, ... each in body order. */
function assertContiguousIterations(plan: ExecutionPlan): void {
  for (const [loopId, status] of Object.entries(plan.loops)) {
    const at = plan.entries.flatMap((entry, index) => (entry.loop?.loopId === loopId ? [index] : []));
    assert.equal(
      at.length === 0 ? 0 : (at.at(-1) ?? 0) - (at[0] ?? 0) + 1,
      at.length,
      `${loopId} is one block`,
    );
    const placements = at.map((index) => plan.entries[index]?.loop);
    let previous: LoopPlacement | undefined;
    for (const placement of placements) {
      const expected =
        previous === undefined
          ? { iteration: 0, position: 0 }
          : previous.isLast
            ? { iteration: previous.iteration + 1, position: 0 }
            : { iteration: previous.iteration, position: previous.position + 1 };
      assert.deepEqual({ iteration: placement?.iteration, position: placement?.position }, expected);
      previous = placement;
    }
    assert.equal(status.iteration, placements.at(-1)?.iteration ?? 0, `${loopId} status iteration`);
  }
}

describe("plan properties over random hanks", () => {
  it("never holds a runtime id twice, keeps iterations contiguous and runs in plan order", () => {
    const causes = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      const random = prng(seed);
      const hank = randomHank(random);
      const run = walk(hank, randomFinish(random), ({ plan }) => {
        const ids = plan.entries.map((entry) => entry.runtimeId);
        assert.equal(new Set(ids).size, ids.length, `seed ${seed}: duplicate runtime id in ${ids.join(",")}`);
        assertContiguousIterations(plan);
      });
      const planned = run.plan.entries.map((entry) => entry.runtimeId);
      assert.deepEqual(planned.slice(0, run.order.length), run.order, `seed ${seed}: ran in plan order`);
      const open = Object.values(run.plan.loops).filter((status) => !status.terminated);
      if (run.halted === undefined) assert.equal(open.length, 0, `seed ${seed}: every loop ended`);
      for (const status of Object.values(run.plan.loops)) if (status.endCause) causes.add(status.endCause);
    }
    assert.deepEqual([...causes].sort(), ["budget", "context_exceeded", "failure", "iteration_limit"]);
  });
});
