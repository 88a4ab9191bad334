import type { GenerationRecord, LoopRunRecord } from "../loops/index.ts";

/**
 * The Loops figures `GET /metrics` exposes, from the store's records. The store is the truth: a
 * restarted daemon, or a second daemon on the same PostgreSQL store, reports the same numbers. Pure
 * folding over records; `LoopFiguresReader` does the reading.
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

/** One run's share of the figures: folded once, and kept as is once the run has ended. */
export interface RunFigures {
  readonly loopId: string;
  readonly state: string;
  readonly generationsByOutcome: ReadonlyMap<string, number>;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallSeconds: number;
  /** Per `gate verdict`, joined by a tab. */
  readonly gateVerdicts: ReadonlyMap<string, number>;
  readonly blockers: number;
}

export function foldRun(run: LoopRunRecord, generations: readonly GenerationRecord[]): RunFigures {
  const byOutcome = new Map<string, number>();
  const gateVerdicts = new Map<string, number>();
  let tokens = 0;
  let costUsd = 0;
  let wallSeconds = 0;
  let blockers = 0;
  for (const generation of generations) {
    add(byOutcome, generation.state, 1);
    tokens += generation.tokens ?? 0;
    costUsd += generation.costUsd ?? 0;
    wallSeconds += wallSecondsOf(generation);
    for (const gate of generation.facts?.gates ?? []) {
      add(gateVerdicts, `${gate.gateId}\t${gate.verdict}`, 1);
      blockers += gate.blockerIds.length;
    }
  }
  return {
    loopId: run.loopId,
    state: run.state,
    generationsByOutcome: byOutcome,
    tokens,
    costUsd,
    wallSeconds,
    gateVerdicts,
    blockers,
  };
}

/** The figures of every run, summed per state and per loop. */
export function sumFigures(runs: Iterable<RunFigures>): LoopFigures {
  const figures = {
    runsByState: new Map<string, number>(),
    generations: new Map<string, Map<string, number>>(),
    tokens: new Map<string, number>(),
    costUsd: new Map<string, number>(),
    wallSeconds: new Map<string, number>(),
    gateVerdicts: new Map<string, number>(),
    blockers: new Map<string, number>(),
  };
  for (const run of runs) {
    const loop = run.loopId;
    add(figures.runsByState, run.state, 1);
    const byOutcome = figures.generations.get(loop) ?? new Map<string, number>();
    figures.generations.set(loop, byOutcome);
    for (const [outcome, count] of run.generationsByOutcome) add(byOutcome, outcome, count);
    add(figures.tokens, loop, run.tokens);
    add(figures.costUsd, loop, run.costUsd);
    add(figures.wallSeconds, loop, run.wallSeconds);
    add(figures.blockers, loop, run.blockers);
    for (const [key, count] of run.gateVerdicts) add(figures.gateVerdicts, `${loop}\t${key}`, count);
  }
  return figures;
}

function wallSecondsOf(generation: GenerationRecord): number {
  if (generation.endedAt === null) return 0;
  const ms = Date.parse(generation.endedAt) - Date.parse(generation.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : 0;
}

function add(map: Map<string, number>, key: string, by: number): void {
  map.set(key, (map.get(key) ?? 0) + by);
}
