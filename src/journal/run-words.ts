import type { RunOutcome } from "../events/run-outcome.ts";
import { parseRuntimeId } from "../util/runtime-id.ts";
import type { RunCounts } from "./run-counts.ts";
import type { CodonRecord } from "./run-state.ts";
import type { CostSource, RunView } from "./run-view.ts";

/**
 * The words every face uses for the run view's figures, so the headless summary, the TUI's box and
 * the web page say the same thing the same way. Browser-safe.
 */

/** The counts said only when they are not zero, in this order. */
const OPTIONAL_COUNTS = {
  stopped: "stopped",
  interrupted: "interrupted",
  skipped: "skipped",
  notStarted: "not started",
} as const;

/** `1 codon(s) completed, 0 failed, 0 ignored, 1 stopped`. */
export function countsText(counts: RunCounts): string {
  const extra = (Object.keys(OPTIONAL_COUNTS) as (keyof typeof OPTIONAL_COUNTS)[])
    .filter((key) => counts[key] > 0)
    .map((key) => `, ${counts[key]} ${OPTIONAL_COUNTS[key]}`);
  return `${counts.completed} codon(s) completed, ${counts.failed} failed, ${counts.ignored} ignored${extra.join("")}`;
}

/** What follows a cost figure: whether the scripted agent simulated it. */
export function costNote(source: CostSource): string {
  if (source === "simulated") return " (simulated by the scripted agent; nothing was spent)";
  if (source === "mixed") return " (part of it simulated by the scripted agent)";
  return "";
}

/**
 * What faces say for a run's tokens when no agent reported any usage (`costSource` "none": no
 * `token.usage` was journaled): unknown is not zero, so no face prints "0 in, 0 out" for it.
 */
export const TOKENS_NOT_REPORTED = "not reported by the agent";

/** Whether the run's token totals are known: some agent reported usage. */
export function tokensReported(source: CostSource): boolean {
  return source !== "none";
}

/** A run's outcome as a title: `Run completed`, `Run interrupted`. */
export const OUTCOME_TITLES: Readonly<Record<RunOutcome, string>> = {
  completed: "Run completed",
  failed: "Run failed",
  aborted: "Run aborted",
  interrupted: "Run interrupted",
};

/**
 * What a spent run ceiling left undone, from the codons that completed without starting:
 * `run ceiling $0.0250 spent: 5 of 6 iterations of loop work not run; codon d not started`. Undefined
 * when nothing was left undone.
 */
export function leftUndoneText(codons: readonly CodonRecord[]): string | undefined {
  const starved = codons.filter((codon) => codon.notStarted !== null);
  const first = starved[0]?.notStarted;
  if (first == null) return undefined;
  const parts = starved.map((codon) => {
    const left = codon.notStarted?.iterationsLeft;
    const hash = codon.id.lastIndexOf("#");
    if (left === undefined || hash === -1) return `codon ${codon.id} not started`;
    const ran = Number(codon.id.slice(hash + 1));
    return `${left} of ${ran + left} iterations of ${codon.id.slice(0, hash)} not run`;
  });
  return `${first.ceiling} spent: ${parts.join("; ")}`;
}

/**
 * Where a codon stands: "codon 4 of 7" (its place among the codons the execution has started, in
 * order, after any rollback; the total from the run's plan size) and, in a loop, "iteration 3 of 6"
 * (1-based; the total is the loop's iteration limit). A total unknown in advance is left out.
 */
export function codonPositionText(runtimeId: string, view: Pick<RunView, "state" | "planSize">): string {
  const index = view.state.codons.findIndex((codon) => codon.id === runtimeId);
  const ordinal = index === -1 ? view.state.codons.length + 1 : index + 1;
  const codon = ofTotal("codon", ordinal, view.planSize?.codons);
  const { configId, iteration } = parseRuntimeId(runtimeId);
  if (iteration === undefined || view.planSize === undefined) return codon;
  const loop = Object.values(view.planSize.loops).find((candidate) => candidate.codons.includes(configId));
  return loop === undefined ? codon : `${codon}, ${ofTotal("iteration", iteration + 1, loop.iterations)}`;
}

export function ofTotal(what: string, n: number, total: number | null | undefined): string {
  return total === null || total === undefined ? `${what} ${n}` : `${what} ${n} of ${total}`;
}
