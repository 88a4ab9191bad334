import type { GenerationRecord, LoopRunRecord, LoopStore } from "../loops/index.ts";

/**
 * The Loops figures `GET /metrics` exposes, read from the store at scrape time. The store is the truth:
 * a restarted daemon, or a second daemon on the same PostgreSQL store, reports the same numbers, and no
 * hook in the coordinator is needed. Pure folding over records; the daemon does the reading.
 */
export interface LoopFigures {
  /** Runs by state. */
  readonly runsByState: ReadonlyMap<string, number>;
  /** Per loop: generations by outcome (`running` for those in progress). */
  readonly generations: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly tokens: ReadonlyMap<string, number>;
  readonly costUsd: ReadonlyMap<string, number>;
  /** Per loop: wall seconds of the generations that ended. */
  readonly wallSeconds: ReadonlyMap<string, number>;
  /** Per `loop gate verdict`, joined by tabs. */
  readonly gateVerdicts: ReadonlyMap<string, number>;
  /** Per loop: blocker ids reported by the gates, over all generations. */
  readonly blockers: ReadonlyMap<string, number>;
}

export function foldLoopFigures(
  runs: readonly { readonly run: LoopRunRecord; readonly generations: readonly GenerationRecord[] }[],
): LoopFigures {
  const figures = {
    runsByState: new Map<string, number>(),
    generations: new Map<string, Map<string, number>>(),
    tokens: new Map<string, number>(),
    costUsd: new Map<string, number>(),
    wallSeconds: new Map<string, number>(),
    gateVerdicts: new Map<string, number>(),
    blockers: new Map<string, number>(),
  };
  for (const { run, generations } of runs) {
    add(figures.runsByState, run.state, 1);
    const byOutcome = figures.generations.get(run.loopId) ?? new Map<string, number>();
    figures.generations.set(run.loopId, byOutcome);
    for (const generation of generations) addGeneration(figures, run.loopId, byOutcome, generation);
  }
  return figures;
}

function addGeneration(
  figures: {
    tokens: Map<string, number>;
    costUsd: Map<string, number>;
    wallSeconds: Map<string, number>;
    gateVerdicts: Map<string, number>;
    blockers: Map<string, number>;
  },
  loopId: string,
  byOutcome: Map<string, number>,
  generation: GenerationRecord,
): void {
  add(byOutcome, generation.state, 1);
  add(figures.tokens, loopId, generation.tokens ?? 0);
  add(figures.costUsd, loopId, generation.costUsd ?? 0);
  if (generation.endedAt !== null) {
    const ms = Date.parse(generation.endedAt) - Date.parse(generation.startedAt);
    if (Number.isFinite(ms) && ms >= 0) add(figures.wallSeconds, loopId, ms / 1000);
  }
  for (const gate of generation.facts?.gates ?? []) {
    add(figures.gateVerdicts, `${loopId}\t${gate.gateId}\t${gate.verdict}`, 1);
    add(figures.blockers, loopId, gate.blockerIds.length);
  }
}

function add(map: Map<string, number>, key: string, by: number): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Reads every run (up to `limit`) and its generations. */
export async function readLoopFigures(store: LoopStore, limit = 10_000): Promise<LoopFigures> {
  const runs = await store.listRuns({ limit });
  const withGenerations = await Promise.all(
    runs.map(async (run) => ({ run, generations: await store.generations(run.id) })),
  );
  return foldLoopFigures(withGenerations);
}
