import type { RunState } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import { buildPlan, isPlanFinished, parseExecutionPlan, reopenLoop, unresolvedEntries } from "../../plan/index.ts";
import type { HankFile } from "../../spec/schema/index.ts";

/** Where a start picks up: a fresh plan, the saved plan, or nothing left to do. */
export type ResumePoint =
  | { readonly kind: "fresh"; readonly plan: ExecutionPlan }
  | { readonly kind: "continue"; readonly plan: ExecutionPlan }
  | { readonly kind: "done" }
  | { readonly kind: "invalid"; readonly message: string };

function finishedIds(state: RunState): Set<string> {
  return new Set(
    state.codons
      .filter((r) => r.status === "completed" || r.status === "skipped" || (r.status === "failed" && r.failureIgnored))
      .map((r) => r.id),
  );
}

/**
 * Decides from the saved plan and the journal's run state. The plan saved in `state.json` is the
 * authority on loop progress; codons count as finished only when the journal says so.
 */
export function resumePoint(hank: HankFile, state: RunState, savedPlan: unknown): ResumePoint {
  if (state.runs.length === 0 || savedPlan === undefined || savedPlan === null) {
    return { kind: "fresh", plan: buildPlan(hank) };
  }
  const parsed = parseExecutionPlan(savedPlan);
  if (!parsed.ok) return { kind: "invalid", message: `The saved execution plan is unreadable: ${parsed.message}` };
  const missing = unresolvedEntries(hank, parsed.plan.entries);
  if (missing.length > 0) {
    return {
      kind: "invalid",
      message: `The hank no longer matches this execution (missing: ${missing.map((e) => e.runtimeId).join(", ")}). Use --start-new to run it fresh.`,
    };
  }
  // A loop that ended on a codon's failure is reopened: that codon runs again and the loop carries on.
  let plan = parsed.plan;
  for (const [loopId, status] of Object.entries(plan.loops)) {
    if (status.endCause === "failure") plan = reopenLoop(plan, loopId);
  }
  if (isPlanFinished(plan, finishedIds(state))) return { kind: "done" };
  return { kind: "continue", plan };
}
