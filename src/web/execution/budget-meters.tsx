import { useEffect, useState } from "react";
import { TOKENS_NOT_REPORTED } from "../../journal/run-words.ts";
import { formatCount, formatMs, formatUsd, ofLimit } from "../shared/format.ts";
import { MeterBar } from "../shared/meter-bar.tsx";
import { useLatest } from "../shared/use-latest.tsx";
import type { ExecutionModel } from "./execution-model.ts";

/** The clock, ticking once a second while `ticking` (a run is live) so its run time moves. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** The last run's wall time so far (or in all, once it ended); undefined before a run started. */
function runSeconds(model: ExecutionModel, now: number): number | undefined {
  const started = model.runStartedAt;
  if (started === undefined) return undefined;
  return Math.max(0, ((model.runEndedAt ?? now) - started) / 1000);
}

/**
 * Spent against limit per currency and scope: the run's totals (live), then, once the run journals its
 * budget summary, each codon's row with its own limits and the limit that tripped.
 */
export function BudgetMeters(props: { readonly model: ExecutionModel }) {
  const { model } = props;
  const summary = model.budget;
  const ceiling = summary?.ceiling;
  // Called on every render, before any branch: a hook's place in the order must never move.
  const now = useNow(model.runEndedAt === undefined && model.runStartedAt !== undefined);
  const seconds = summary?.totals.actualTimeSeconds ?? runSeconds(model, now);
  const rows = useLatest(summary?.rows ?? [], 50, "codons");
  return (
    <section aria-labelledby="budget-title" className="budget">
      <h2 id="budget-title">Budget</h2>
      <MeterBar
        id="run-cost"
        label="Run cost"
        value={model.totalCost}
        limit={ceiling?.maxDollars}
        text={ofLimit(formatUsd(model.totalCost), ceiling?.maxDollars, formatUsd)}
      />
      <MeterBar
        id="run-time"
        label="Run time"
        value={seconds ?? 0}
        limit={ceiling?.maxTimeSeconds}
        text={ofLimit(seconds === undefined ? "–" : formatMs(seconds * 1000), ceiling?.maxTimeSeconds, (s) =>
          formatMs(s * 1000),
        )}
      />
      <MeterBar
        id="run-tokens"
        label="Tokens"
        value={model.totalTokens}
        limit={undefined}
        text={model.tokensReported ? formatCount(model.totalTokens) : TOKENS_NOT_REPORTED}
      />
      {rows.more}
      {summary !== undefined && (
        <table className="budget-rows">
          <caption>Per codon</caption>
          <thead>
            <tr>
              <th scope="col">Codon</th>
              <th scope="col">Status</th>
              <th scope="col">Cost</th>
              <th scope="col">Time</th>
              <th scope="col">Output tokens</th>
            </tr>
          </thead>
          <tbody>
            {rows.shown.map((row) => (
              <tr key={row.codonId}>
                <th scope="row">{row.codonId}</th>
                <td>
                  {row.budgetExceeded === undefined
                    ? row.status
                    : `${row.status} (${row.budgetExceeded.currency})`}
                </td>
                <td>{ofLimit(formatUsd(row.actual.dollars), row.budget.maxDollars, formatUsd)}</td>
                <td>
                  {ofLimit(formatMs(row.actual.timeSeconds * 1000), row.budget.maxTimeSeconds, (s) =>
                    formatMs(s * 1000),
                  )}
                </td>
                <td>
                  {ofLimit(formatCount(row.actual.outputTokens), row.budget.maxOutputTokens, formatCount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
