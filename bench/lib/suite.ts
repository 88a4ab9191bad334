import type { FigureLine } from "./figure.ts";
import type { CaseRunner } from "./run-case.ts";

/** What every suite gets from the orchestrator. */
export interface SuiteContext {
  /** Smaller sizes and fewer runs, for iterating on the benchmarks themselves. */
  readonly quick: boolean;
  readonly repoRoot: string;
  /** Runs a case in a fresh process; identical requests share one run (suites 1 and 6 share loops). */
  readonly runCase: CaseRunner;
  /** The orchestrator's environment, `NODE_EXTRA_CA_CERTS` included (cold starts measure both). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A scratch directory for the whole bench run, removed at the end. */
  readonly scratch: string;
  /** Progress, to stderr. */
  readonly log: (line: string) => void;
}

export interface Suite {
  /** The `--only` name and the `bench` field of its figures. */
  readonly name: string;
  readonly title: string;
  run(context: SuiteContext): Promise<FigureLine[]>;
}
