import type { RunOutcome } from "../events/run-outcome.ts";
import type { RunCounts } from "./run-counts.ts";
import type { CostSource } from "./run-view.ts";

/**
 * The words every face uses for the run view's figures, so the headless summary, the TUI's box and
 * the web page say the same thing the same way. Browser-safe.
 */

/** The counts said only when they are not zero, in this order. */
const OPTIONAL_COUNTS = ["stopped", "interrupted", "skipped"] as const;

/** `1 codon(s) completed, 0 failed, 0 ignored, 1 stopped`. */
export function countsText(counts: RunCounts): string {
  const extra = OPTIONAL_COUNTS.filter((key) => counts[key] > 0).map((key) => `, ${counts[key]} ${key}`);
  return `${counts.completed} codon(s) completed, ${counts.failed} failed, ${counts.ignored} ignored${extra.join("")}`;
}

/** What follows a cost figure: whether the scripted agent simulated it. */
export function costNote(source: CostSource): string {
  if (source === "simulated") return " (simulated by the scripted agent; nothing was spent)";
  if (source === "mixed") return " (part of it simulated by the scripted agent)";
  return "";
}

/** A run's outcome as a title: `Run completed`, `Run interrupted`. */
export const OUTCOME_TITLES: Readonly<Record<RunOutcome, string>> = {
  completed: "Run completed",
  failed: "Run failed",
  aborted: "Run aborted",
  interrupted: "Run interrupted",
};
