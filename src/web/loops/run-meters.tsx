import type { LoopRunView as LoopRun } from "../../events/loop-records.ts";
import { formatCount, formatMs, formatUsd, ofLimit } from "../shared/format.ts";
import { MeterBar } from "../shared/meter-bar.tsx";

/**
 * The five meters: generations vs the cap, tokens vs the budget, wall clock vs its budget, the
 * no-progress count vs the window, and cost, a meter without a cap. Budgets include the amounts that
 * approvals added.
 */
/** The run's token and wall-clock budgets with the approvals' additions; undefined when off. */
export function runBudgets(run: LoopRun): { tokens: number | undefined; wallSec: number | undefined } {
  const added = (budget: "tokens" | "wall_clock") =>
    run.amendments.filter((a) => a.budget === budget).reduce((sum, a) => sum + a.add, 0);
  return {
    tokens: budgetOf(run.contract.limits.budget_tokens, added("tokens")),
    wallSec: budgetOf(run.contract.limits.budget_wall_clock_sec, added("wall_clock")),
  };
}

export function RunMeters(props: { readonly run: LoopRun }) {
  const { meters, contract } = props.run;
  const cap = contract.limits.iteration_cap ?? 0;
  const { tokens: tokenBudget, wallSec: wallBudget } = runBudgets(props.run);
  const window = contract.limits.window ?? 0;
  const runningSec = meters.runningMs / 1000;
  return (
    <section aria-labelledby="meters-title" className="meters">
      <h2 id="meters-title">Meters</h2>
      <MeterBar
        id="generations"
        label="Generations"
        value={meters.generations}
        limit={cap}
        text={ofLimit(String(meters.generations), cap, String)}
      />
      <MeterBar
        id="tokens"
        label="Tokens"
        value={meters.tokens}
        limit={tokenBudget}
        text={ofLimit(
          `${formatCount(meters.tokens)}${meters.tokensKnown ? "" : "+"}`,
          tokenBudget,
          formatCount,
        )}
      />
      <MeterBar
        id="wall-clock"
        label="Wall clock"
        value={runningSec}
        limit={wallBudget}
        text={ofLimit(formatMs(meters.runningMs), wallBudget, (s) => formatMs(s * 1000))}
      />
      <MeterBar
        id="no-progress"
        label="No progress"
        value={meters.noProgress}
        limit={window}
        text={ofLimit(String(meters.noProgress), window, String)}
      />
      <MeterBar
        id="cost"
        label="Cost (no cap)"
        value={meters.costUsd}
        limit={undefined}
        text={`${formatUsd(meters.costUsd)}${meters.costKnown ? "" : "+"}`}
      />
    </section>
  );
}

/** 0 means off; an approval's amount is added to a budget that is on. */
function budgetOf(base: number | undefined, added: number): number | undefined {
  if (base === undefined || base === 0) return undefined;
  return base + added;
}
