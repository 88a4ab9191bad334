import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DataOf, JournaledEvent, JournaledType } from "../events/events.ts";
import type { CodonEndReasons } from "../events/payloads-common.ts";
import { reduce } from "./reduce.ts";
import {
  type CodonRecord,
  emptyCodonRecord,
  findCodon,
  initialRunState,
  type RunState,
} from "./run-state.ts";
import { RunStateStore } from "./run-state-store.ts";

const ts = (second: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();

type Draft = { [T in JournaledType]: { type: T; data: DataOf<T> } }[JournaledType];

/** Numbers drafts as a journal would: seq 1, 2, ...; id `evt-<seq>`; one second apart. */
function journal(drafts: Draft[]): JournaledEvent[] {
  return drafts.map(
    (draft, i) =>
      ({ v: 1, id: `evt-${i + 1}`, seq: i + 1, timestamp: ts(i + 1), ...draft }) as JournaledEvent,
  );
}

function transition(
  transitionType: DataOf<"state.transition">["transitionType"],
  ids: { runId?: string; codonId?: string },
  data: Record<string, unknown> = {},
): Draft {
  return {
    type: "state.transition",
    data: {
      transitionType,
      ...ids,
      transition: { type: transitionType, data },
      resultingState: { currentRunId: ids.runId ?? null, runCount: 1, totalCost: 0, currentRunCost: 0 },
    },
  };
}

function started(codonId: string, sessionId: string, second: number, attempt = 1): Draft {
  const codonName = codonId.replace(/#\d+$/, "");
  return { type: "codon.started", data: { codonId, codonName, sessionId, startTime: ts(second), attempt } };
}

function usage(
  codonId: string,
  inputTokens: number,
  outputTokens: number,
  totalCost: number,
  cache = [0, 0],
): Draft {
  const [cacheCreationTokens = 0, cacheReadTokens = 0] = cache;
  return {
    type: "token.usage",
    data: { codonId, inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, totalCost },
  };
}

function completed(
  codonId: string,
  cost: number,
  duration: number,
  extra: Partial<DataOf<"codon.completed">> = {},
): Draft {
  return {
    type: "codon.completed",
    data: { codonId, success: true, cost, duration, exitStatus: { type: "success" }, ...extra },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Replays with every intermediate state frozen, so any mutation of an input throws. */
function replay(events: JournaledEvent[], from: RunState = initialRunState()): RunState {
  return events.reduce((state, event) => reduce(deepFreeze(state), event), from);
}

const ALL_COMPLETED: CodonEndReasons = {
  stream: "completed",
  toolBatch: "completed",
  turn: "completed",
  codon: "completed",
};
const RATE_LIMIT = { type: "rate-limit", retriable: true, message: "429 rate_limit_error" } as const;

const SCRIPT = journal([
  transition("RunStarted", { runId: "run-1" }),
  started("plan", "s-plan", 2),
  usage("plan", 1000, 200, 0.25),
  usage("plan", 500, 100, 0.5, [10, 300]),
  completed("plan", 0.625, 20_000, { endReasons: ALL_COMPLETED, attempt: 1 }),
  started("edit#0", "s-e0", 6),
  usage("edit#0", 100, 10, 0.125),
  completed("edit#0", 0.125, 3000, {
    success: false,
    exitStatus: { type: "error", code: 1 },
    failureReason: RATE_LIMIT,
    endReasons: { stream: "error", toolBatch: "completed", turn: "error", codon: "error" },
    attempt: 1,
  }),
  { type: "info", data: { message: "Retrying codon edit#0" } },
  started("edit#0", "s-e0b", 10, 2),
  usage("edit#0", 200, 50, 0.25),
  completed("edit#0", 0.25, 4000, { attempt: 2 }),
  {
    type: "loop.iteration.completed",
    data: {
      loopId: "revise",
      iteration: 0,
      durationMs: 7000,
      costUsd: 0.375,
      tokensUsed: 360,
      isFinal: false,
    },
  },
  started("edit#1", "s-e1", 14),
  completed("edit#1", 0.5, 2000, {
    budgetExceeded: { currency: "cost", limit: 0.5, used: 0.5 },
    endReasons: { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "completed" },
  }),
  {
    type: "loop.iteration.completed",
    data: {
      loopId: "revise",
      iteration: 1,
      durationMs: 2000,
      costUsd: 0.5,
      tokensUsed: 0,
      isFinal: true,
      terminationReason: "iteration_limit",
    },
  },
  transition("CodonTransitioned", { runId: "run-1", codonId: "review" }, { status: "skipped" }),
  transition("RunCompleted", { runId: "run-1" }),
]);

function codon(id: string, fields: Partial<CodonRecord>): CodonRecord {
  return { ...emptyCodonRecord(id), ...fields };
}

/** A `rollback.completed` to `codonId`'s checkpoint of `checkpointType`, journaled at `seq`. */
function rollbackTo(codonId: string, checkpointType: string, seq: number): JournaledEvent {
  return {
    v: 1,
    id: `rb-${seq}`,
    seq,
    timestamp: ts(seq),
    type: "rollback.completed",
    data: {
      fromRun: "run-1",
      toRun: "run-2",
      checkpoint: "abc",
      codonId,
      codonName: codonId,
      checkpointType,
      autoRestart: false,
    },
  };
}

describe("reduce", () => {
  it("rebuilds the exact state of a scripted run", () => {
    const expected: RunState = {
      lastSeq: 18,
      lastEventId: "evt-18",
      currentRunId: null,
      runs: [{ id: "run-1", status: "completed", startedAt: ts(1), endedAt: ts(18) }],
      codons: [
        codon("plan", {
          name: "plan",
          status: "completed",
          attempts: 1,
          sessionId: "s-plan",
          cost: 0.625,
          durationMs: 20_000,
          tokens: { input: 1500, output: 300, cacheCreation: 10, cacheRead: 300 },
          endReasons: ALL_COMPLETED,
          startedAt: ts(2),
          endedAt: ts(5),
        }),
        codon("edit#0", {
          name: "edit",
          status: "completed",
          attempts: 2,
          sessionId: "s-e0b",
          cost: 0.375,
          durationMs: 7000,
          tokens: { input: 300, output: 60, cacheCreation: 0, cacheRead: 0 },
          startedAt: ts(10),
          endedAt: ts(12),
        }),
        codon("edit#1", {
          name: "edit",
          status: "completed",
          attempts: 1,
          sessionId: "s-e1",
          cost: 0.5,
          durationMs: 2000,
          budgetExceeded: { currency: "cost", limit: 0.5, used: 0.5 },
          endReasons: { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "completed" },
          startedAt: ts(14),
          endedAt: ts(15),
        }),
        codon("review", { status: "skipped" }),
      ],
      loops: {
        revise: {
          id: "revise",
          iterationsCompleted: 2,
          lastIteration: 1,
          isFinal: true,
          terminationReason: "iteration_limit",
          costUsd: 0.875,
          durationMs: 9000,
          tokensUsed: 360,
        },
      },
      totals: {
        cost: 1.5,
        durationMs: 29_000,
        inputTokens: 1800,
        outputTokens: 360,
        cacheCreationTokens: 10,
        cacheReadTokens: 300,
      },
    };
    assert.deepEqual(replay(SCRIPT), expected);
  });

  it("records a failed attempt, then the running cost of the retry", () => {
    const afterFailure = replay(SCRIPT.slice(0, 9));
    assert.deepEqual(findCodon(afterFailure, "edit#0"), {
      ...codon("edit#0", {
        name: "edit",
        status: "failed",
        attempts: 1,
        sessionId: "s-e0",
        cost: 0.125,
        durationMs: 3000,
        tokens: { input: 100, output: 10, cacheCreation: 0, cacheRead: 0 },
        failureReason: RATE_LIMIT,
        failedDuring: "running",
        endReasons: { stream: "error", toolBatch: "completed", turn: "error", codon: "error" },
        startedAt: ts(6),
        endedAt: ts(8),
      }),
    });
    assert.equal(afterFailure.totals.cost, 0.75);
    const retrying = replay(SCRIPT.slice(0, 11));
    assert.deepEqual(
      [
        findCodon(retrying, "edit#0")?.status,
        findCodon(retrying, "edit#0")?.runningCost,
        findCodon(retrying, "edit#0")?.cost,
      ],
      ["running", 0.25, 0.125],
    );
    assert.equal(retrying.totals.cost, 1);
    assert.equal(retrying.currentRunId, "run-1");
  });

  it("keeps the final text of the latest successful attempt; a failure or a crash clears it", () => {
    const result = { text: "Done.", truncated: false, chars: 5 };
    const failure = {
      success: false,
      exitStatus: { type: "error", code: 1 },
      failureReason: RATE_LIMIT,
    } as const;
    const events = journal([
      transition("RunStarted", { runId: "run-1" }),
      started("a", "s-a", 2),
      completed("a", 0, 1000, { result }),
      started("b", "s-b", 4),
      completed("b", 0, 1000, { result }),
      started("b", "s-b2", 6, 2),
      completed("b", 0, 1000, failure),
      started("c", "s-c", 8),
      completed("c", 0, 1000, { result }),
      started("c", "s-c2", 10, 2),
      transition("RunCrashed", { runId: "run-1" }),
    ]);
    assert.deepEqual(
      replay(events).codons.map((c) => [c.id, c.result]),
      [
        ["a", result],
        ["b", null],
        ["c", null],
      ],
    );
  });

  it("ignores events it has already applied", () => {
    const state = replay(SCRIPT.slice(0, 5));
    const again = SCRIPT[3];
    assert.ok(again);
    assert.equal(reduce(state, again), state);
    assert.deepEqual(replay(SCRIPT, state), replay(SCRIPT));
  });

  it("settles the active codon of a crashed run as interrupted, and starts the next run", () => {
    const events = journal([
      transition("RunStarted", { runId: "run-1" }),
      started("build", "s-b", 2),
      usage("build", 10, 5, 0.25),
      transition("RunCrashed", { runId: "run-1" }),
      transition("RunStarted", { runId: "run-2" }),
      started("build", "s-b2", 6, 2),
    ]);
    const crashed = replay(events.slice(0, 4));
    assert.deepEqual(crashed.runs, [
      { id: "run-1", status: "interrupted", startedAt: ts(1), endedAt: ts(4) },
    ]);
    assert.equal(crashed.currentRunId, null);
    assert.deepEqual(findCodon(crashed, "build"), {
      ...codon("build", {
        name: "build",
        status: "failed",
        attempts: 1,
        sessionId: "s-b",
        cost: 0.25,
        tokens: { input: 10, output: 5, cacheCreation: 0, cacheRead: 0 },
        failedDuring: "running",
        endReasons: {
          stream: "interrupted",
          toolBatch: "interrupted",
          turn: "interrupted",
          codon: "interrupted",
        },
        startedAt: ts(2),
        endedAt: ts(4),
      }),
    });
    assert.equal(crashed.totals.cost, 0.25);
    const resumed = replay(events);
    assert.deepEqual(
      resumed.runs.map((run) => [run.id, run.status]),
      [
        ["run-1", "interrupted"],
        ["run-2", "running"],
      ],
    );
    assert.equal(resumed.currentRunId, "run-2");
    assert.deepEqual(
      [
        findCodon(resumed, "build")?.status,
        findCodon(resumed, "build")?.attempts,
        findCodon(resumed, "build")?.sessionId,
      ],
      ["running", 1, "s-b2"],
    );
  });

  it("counts a rig failure without codon.started as a failed attempt during preparing", () => {
    const events = journal([
      transition("RunStarted", { runId: "run-1" }),
      transition("CodonTransitioned", { runId: "run-1", codonId: "setup" }, { status: "preparing" }),
      completed("setup", 0, 150, { success: false, exitStatus: { type: "error", code: 1 } }),
      transition("RunFailed", { runId: "run-1" }),
    ]);
    const state = replay(events);
    assert.deepEqual(
      [
        findCodon(state, "setup")?.status,
        findCodon(state, "setup")?.failedDuring,
        findCodon(state, "setup")?.attempts,
      ],
      ["failed", "preparing", 1],
    );
    assert.deepEqual(state.runs[0]?.status, "failed");
  });

  it("ends an attempt when a running codon is skipped", () => {
    const events = journal([
      started("c", "s-c", 1),
      usage("c", 1, 1, 0.125),
      transition("CodonTransitioned", { codonId: "c" }, { status: "skipped" }),
    ]);
    const skipped = findCodon(replay(events), "c");
    assert.deepEqual(
      [skipped?.status, skipped?.attempts, skipped?.cost, skipped?.runningCost, skipped?.failedDuring],
      ["skipped", 1, 0.125, 0, null],
    );
  });

  it("undoes the codons after a rollback target but keeps the spend", () => {
    const done = replay(SCRIPT);
    const rollback = (checkpointType: string, seq: number) => rollbackTo("plan", checkpointType, seq);
    const toEnd = reduce(done, rollback("completed", 19));
    assert.deepEqual(
      toEnd.codons.map((c) => c.id),
      ["plan"],
    );
    assert.deepEqual(toEnd.totals, done.totals);
    const toStart = reduce(done, rollback("rig-setup", 19));
    assert.deepEqual(toStart.codons, []);
  });

  it("keeps the highest extension number", () => {
    const extended = (extensionNumber: number): Draft => ({
      type: "codon.extended",
      data: {
        codonId: "fill",
        codonName: "Fill",
        extensionNumber,
        exhaustWithPrompt: "Continue.",
        cumulativeTokens: { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 },
        cumulativeCost: 0,
      },
    });
    const state = replay(journal([started("fill", "s-f", 1), extended(1), extended(2)]));
    assert.equal(findCodon(state, "fill")?.extensions, 2);
  });
});

describe("RunStateStore", () => {
  /** SCRIPT, a rollback to `plan`, then a second run that reuses an undone id and adds new ones. */
  const LONG = [
    ...SCRIPT,
    rollbackTo("plan", "completed", SCRIPT.length + 1),
    ...journal([
      transition("RunStarted", { runId: "run-2" }),
      started("edit#0", "s-again", 1),
      completed("edit#0", 0.5, 1000),
      started("plan", "s-plan-2", 3),
      started("fresh", "s-fresh", 4),
      transition("RunFailed", { runId: "run-2" }),
    ]).map((event) => ({ ...event, seq: event.seq + SCRIPT.length + 1, id: `late-${event.seq}` })),
  ];

  it("agrees with the pure reducer after every event, rollbacks and reused ids included", () => {
    const store = new RunStateStore();
    let pure = initialRunState();
    for (const event of LONG) {
      store.apply(event);
      pure = reduce(pure, event);
      assert.deepEqual(store.state, pure, `after event ${event.seq} (${event.type})`);
      for (const record of pure.codons) assert.deepEqual(store.codon(record.id), findCodon(pure, record.id));
    }
    assert.deepEqual(
      store.state.codons.map((c) => c.id),
      ["plan", "edit#0", "fresh"],
    );
    assert.equal(store.codon("edit#1"), undefined, "an undone codon leaves the index");
    assert.equal(store.codonIndex("fresh"), 2);
  });

  it("never changes its initial state, a record read earlier, or a detached copy", () => {
    const initial = deepFreeze(replay(SCRIPT.slice(0, 5)));
    const store = new RunStateStore(initial);
    const plan = store.codon("plan");
    const planBefore = structuredClone(plan);
    const detached = store.detached();
    const detachedBefore = structuredClone(detached);
    for (const event of LONG.slice(5)) store.apply(event);
    assert.deepEqual(plan, planBefore);
    assert.deepEqual(detached, detachedBefore);
    assert.notDeepEqual(store.state, detached);
  });

  it("ignores events the state already includes", () => {
    const store = new RunStateStore(replay(SCRIPT));
    const before = structuredClone(store.state);
    for (const event of SCRIPT) store.apply(event);
    assert.deepEqual(store.state, before);
  });
});
