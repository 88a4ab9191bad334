import type { BudgetAmendment } from "../../loops/model/budgets.ts";
import { ZERO_METERS } from "../../loops/model/budgets.ts";
import type { PinnedContract } from "../../loops/model/contract.ts";
import { BUILTIN_DEFAULTS } from "../../loops/model/limits.ts";
import type { LoopStore } from "../../loops/store/loop-store.ts";
import type { GenerationRecord, NewRun } from "../../loops/store/store-records.ts";

/** What a loop store implementation gives the conformance suite. */
export interface LoopStoreTarget {
  /** A fresh, empty store in `dir` (a temp directory the suite removes). */
  open(dir: string): Promise<LoopStore>;
  /** Reopens the store `open` made in `dir` (durability cases); absent: they are skipped. */
  reopen?(dir: string): Promise<LoopStore>;
  /** Case ids this store is known not to meet yet, with why: they run as `todo`. */
  readonly limitations?: Readonly<Record<string, string>>;
}

export const T0 = "2026-01-01T00:00:00.000Z";

/** A minimal pinned contract for stored runs (the store keeps it as data; it never reads it). */
export function sampleContract(loopId = "demo"): PinnedContract {
  return {
    schemaVersion: 1,
    loopId,
    name: loopId,
    kind: "delivery",
    owner: "tests",
    goal: "g",
    definitionOfDone: null,
    limits: BUILTIN_DEFAULTS.delivery,
    clamped: [],
    onExceeded: "halt",
    hashFields: ["workspace", "gates"],
    onInterrupted: "resume",
    body: { hank: "/h", data: null, model: null },
    gates: [],
    hooks: { generationPre: null, gatePre: null },
    fanOut: null,
    watch: null,
    escalation: null,
    hashes: {},
    admittedAnyway: null,
  };
}

export function newRun(id: string, loopId = "demo", key = id, createdAt = T0): NewRun {
  const amendments: BudgetAmendment[] = [];
  return {
    id,
    loopId,
    key,
    trigger: "manual",
    contract: sampleContract(loopId),
    meters: ZERO_METERS,
    amendments,
    dir: `/runs/${id}`,
    createdAt,
  };
}

export function generation(
  runId: string,
  number: number,
  extra: Partial<GenerationRecord> = {},
): GenerationRecord {
  return {
    runId,
    number,
    key: `${runId}#g${number}`,
    state: "running",
    facts: { number, body: { kind: "completed" }, gates: [], hash: null },
    layers: [],
    bodyRunId: null,
    workspaceTree: null,
    tokens: null,
    costUsd: null,
    readMessages: [],
    startedAt: T0,
    endedAt: null,
    ...extra,
  };
}

/** Admits a run that must be admitted, and returns its record. */
export async function admitted(store: LoopStore, run: NewRun) {
  const result = await store.admitRun(run, { concurrency: "allow", initial: "running" });
  if (result.kind !== "admitted") throw new Error(`expected ${run.id} to be admitted, got ${result.kind}`);
  return result.run;
}
