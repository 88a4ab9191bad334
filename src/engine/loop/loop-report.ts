import type { DataOf } from "../../events/events.ts";
import type { AfterCodonDecision, ExecutionPlan } from "../../plan/index.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import type { EventDraftOf, EventSink } from "../run/event-sink.ts";
import { iterationStats } from "./loop-iteration-stats.ts";

/** Which budget ended the loop: its own, or the run's ceiling, with what that left undone. */
function budgetEndMessage(loopId: string, last: DataOf<"codon.completed"> | undefined): string {
  const starved = last?.notStarted;
  if (starved === undefined) return `Loop ${loopId} ended: its budget is exhausted`;
  const left = starved.iterationsLeft;
  const undone = left === undefined ? "its remaining iterations not run" : `${left} iteration(s) not run`;
  return `Loop ${loopId} ended: the ${starved.ceiling} is spent; ${undone} (a later start with a higher ceiling runs them)`;
}

/**
 * The loop's iteration report for a decision that ends an iteration (`loop.iteration.completed`, with
 * the loop's end cause when it is final), or nothing. The finishing codon is counted as done.
 */
export function loopReportEvents(
  plan: ExecutionPlan,
  sink: EventSink,
  decision: AfterCodonDecision,
  outcome: Pick<CodonOutcome, "pending">,
): EventDraftOf[] {
  if (decision.kind !== "next-iteration" && decision.kind !== "loop-ends") return [];
  const finalRecord = outcome.pending.find((draft) => draft.type === "codon.completed");
  const last = finalRecord?.type === "codon.completed" ? finalRecord.data : undefined;
  const stats = iterationStats(plan, (id) => sink.codon(id), decision.loopId, decision.iteration, last);
  const ends = decision.kind === "loop-ends";
  const events: EventDraftOf[] = [
    {
      type: "loop.iteration.completed",
      data: {
        loopId: decision.loopId,
        iteration: decision.iteration,
        durationMs: stats.durationMs,
        costUsd: stats.costUsd,
        tokensUsed: stats.tokensUsed,
        isFinal: ends,
        ...(ends &&
          decision.terminationReason !== undefined && { terminationReason: decision.terminationReason }),
        ...(ends &&
          decision.terminationReason === undefined && { endCause: decision.ruleCause ?? decision.cause }),
      },
    },
  ];
  if (ends && decision.cause === "budget") {
    events.push({ type: "info", data: { message: budgetEndMessage(decision.loopId, last) } });
  }
  if (ends && decision.cause === "rule") {
    events.push({
      type: "info",
      data: { message: `Loop ${decision.loopId} ended: stop rule "${decision.ruleCause ?? "rule"}" fired` },
    });
  }
  return events;
}
