import type { EngineCaseArgs, EngineCaseResult, EngineMode } from "../cases/engine-case.ts";
import type { SuiteContext } from "./suite.ts";

/** The 1,000-iteration loop of one no-op codon (100 in quick mode): suites 1 and 6 both report it. */
export function loopCase(
  context: SuiteContext,
  mode: EngineMode,
): { args: EngineCaseArgs; repeat: number; run: () => Promise<EngineCaseResult[]> } {
  const args: EngineCaseArgs = {
    fixture: { shape: { kind: "loop", iterations: context.quick ? 100 : 1000 } },
    mode,
  };
  const repeat = context.quick ? 2 : 3;
  return { args, repeat, run: () => context.runCase<EngineCaseResult>({ name: "engine", args, repeat }) };
}

/** Milliseconds per codon of each run. */
export function perCodon(
  runs: readonly EngineCaseResult[],
  pick: (run: EngineCaseResult) => number,
): number[] {
  return runs.map((run) => pick(run) / run.codons);
}

/** Throws when a benchmark run did not complete: its figures would mean nothing. */
export function requireCompleted(runs: readonly EngineCaseResult[], what: string): void {
  for (const run of runs) {
    if (run.status !== "completed") throw new Error(`${what}: the run ended ${run.status}`);
  }
}
