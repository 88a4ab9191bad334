import type { HankFile } from "../../hank/schema/index.ts";
import type { LoopStop, PlannedCodon } from "../../plan/index.ts";
import { LOOP_STOP_RULES, terminateOnOf } from "../../plan/index.ts";
import { firstVerdict, firstVerdictAsync } from "../../util/stop-rule.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import { carriesOnAfter } from "../run/run-ending.ts";
import { type LoopStopPredicate, loopStopContext } from "./loop-stop-predicate.ts";

/** A finished loop codon and the caller's rules to ask about it. */
export interface CallerStopQuestion {
  readonly hank: HankFile;
  readonly rules: readonly LoopStopPredicate[] | undefined;
  readonly entry: PlannedCodon;
  readonly outcome: CodonOutcome;
}

/**
 * The caller's stop rules, asked for a loop codon whose iteration carries on and that no built-in rule
 * ends (the built-in rules keep their precedence). A verdict becomes a loop stop with the rule's cause;
 * a rule that throws fails the run with its message. The caller skips codons whose decision the plan
 * already holds (a redo), so a rule is never asked twice about one decision.
 */
export async function askCallerRules(
  question: CallerStopQuestion,
  signal: AbortSignal,
): Promise<LoopStop | { readonly failed: string } | undefined> {
  const { entry, outcome } = question;
  const rules = question.rules ?? [];
  const context = loopStopContext(entry, outcome.finish, outcome.result, signal);
  if (rules.length === 0 || context === undefined) return undefined;
  if (!carriesOnAfter(outcome) || builtInStop(question) !== undefined) return undefined;
  try {
    const verdict = await firstVerdictAsync(rules, context);
    return verdict && { cause: "rule", ruleCause: verdict.cause, dropRemaining: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { failed: `A stop rule failed after codon ${entry.runtimeId}: ${reason}` };
  }
}

/** The built-in rules' verdict for a loop codon. */
function builtInStop({ hank, entry, outcome }: CallerStopQuestion): LoopStop | undefined {
  const terminateOn = terminateOnOf(hank, entry);
  if (entry.loop === undefined || terminateOn === undefined) return undefined;
  return firstVerdict(LOOP_STOP_RULES, { placement: entry.loop, finish: outcome.finish, terminateOn });
}
