/**
 * The one shape of a stop rule, at every layer that decides when repeated work ends: hank loops
 * (`plan/stop-rules.ts`), a caller's loop rules (`LoopStopPredicate`), `loop()`'s `until`, and the Loops
 * stop model (`loops/model/stop-model.ts`). What happened so far goes in; a verdict naming its cause
 * comes out when the rule fires, and undefined lets the work go on. Rules are asked in precedence
 * order and the first verdict wins, so a rule never needs to know about the ones before it.
 */
export type StopRule<History, Verdict> = (history: History) => Verdict | undefined;

/** A stop rule that may look outside the run first (run the tests, ask a judge). */
export type AsyncStopRule<History, Verdict> = (
  history: History,
) => Verdict | undefined | Promise<Verdict | undefined>;

/** The verdict of the first rule that fires, in order; undefined when none does. */
export function firstVerdict<History, Verdict>(
  rules: readonly StopRule<History, Verdict>[],
  history: History,
): Verdict | undefined {
  for (const rule of rules) {
    const verdict = rule(history);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/** `firstVerdict` for rules that may be async: each is awaited before the next is asked. */
export async function firstVerdictAsync<History, Verdict>(
  rules: readonly AsyncStopRule<History, Verdict>[],
  history: History,
): Promise<Verdict | undefined> {
  for (const rule of rules) {
    const verdict = await rule(history);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}
