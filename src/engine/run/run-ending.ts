import type { AfterCodonDecision, PlannedCodon } from "../../plan/index.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import type { RunResult } from "../engine-types.ts";
import type { EventSink } from "./event-sink.ts";

/** How the run ends, once the driver knows. */
export interface Ending {
  readonly status: RunResult["status"];
  readonly message: string;
}

/** How a run that reached its end says so: failures it ignored are counted, never hidden. */
export function completionMessage(sink: EventSink): string {
  const ignored = sink.state().codons.filter((codon) => codon.status === "failed" && codon.failureIgnored);
  if (ignored.length === 0) return "All codons completed";
  return `All codons finished; ${ignored.length} failed and ${ignored.length === 1 ? "was" : "were"} ignored (${ignored.map((codon) => codon.id).join(", ")})`;
}

/** Whether the codon's iteration may carry on, so a caller rule may be asked. */
export function carriesOnAfter(outcome: CodonOutcome): boolean {
  const { kind } = outcome.finish;
  return kind === "completed" || kind === "skipped" || kind === "failed-ignored";
}

/** The run's ending implied by a decision: a failure that halts the run or ends its loop with failure. */
export function runEndingAfter(
  decision: AfterCodonDecision,
  outcome: CodonOutcome,
  entry: PlannedCodon,
): Ending | undefined {
  const failed = {
    status: "failed" as const,
    message: outcome.runFailure ?? `Codon ${entry.runtimeId} failed`,
  };
  if (decision.kind === "halt") return failed;
  if (decision.kind === "loop-ends" && !decision.runContinues) return failed;
  if (outcome.finish.kind === "failed") return failed;
  return undefined;
}
