import type { TerminateOn } from "../../hank/schema/index.ts";
import type { PlannedCodon } from "../../plan/index.ts";
import type { SpentCeiling } from "../budget/budget-input.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import type { EventSink } from "./event-sink.ts";

/**
 * The outcome of a codon the run's spent ceiling starves (`onExceeded: complete`): it completes without
 * starting, as the reference's codon that "starts with $0 budget and immediately exceeds" does, but
 * without the billed call: one `codon.completed` with `budgetExceeded` and `notStarted`, finished as
 * `not-started`, so a loop it belongs to ends (its iteration kept for a later start) and the run goes on.
 */
export function starvedOutcome(
  entry: PlannedCodon,
  spent: SpentCeiling,
  sink: EventSink,
  terminateOn: TerminateOn | undefined,
): CodonOutcome {
  const attempt = (sink.codon(entry.runtimeId)?.attempts ?? 0) + 1;
  const iterationsLeft = iterationsLeftOf(entry, terminateOn);
  return {
    finish: { kind: "not-started" },
    exceeded: { ...spent.exceeded, message: spent.message },
    pending: [
      {
        type: "codon.completed",
        data: {
          codonId: entry.runtimeId,
          success: true,
          cost: 0,
          duration: 0,
          exitStatus: { type: "none" },
          budgetExceeded: spent.exceeded,
          attempt,
          notStarted: {
            ceiling: spent.ceiling,
            ...(iterationsLeft !== undefined && { iterationsLeft }),
          },
        },
      },
    ],
  };
}

/** In a loop with an iteration limit: the iterations not run, this one included. */
function iterationsLeftOf(entry: PlannedCodon, terminateOn: TerminateOn | undefined): number | undefined {
  if (entry.loop === undefined || terminateOn?.type !== "iterationLimit") return undefined;
  return Math.max(1, terminateOn.limit - entry.loop.iteration);
}
