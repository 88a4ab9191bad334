import type { LoopRunView as LoopRun } from "../../events/loop-records.ts";
import { ChartSvg } from "../shared/bar-chart.tsx";

const DAYS = 30;
const DAY_MS = 86_400_000;
const CELL = 8;
/** Runs drawn per day; more are counted in the label and the day's title. */
const STACK = 4;

/**
 * A Loop's ended runs over the last 30 days: one column per day (oldest left), one square per run,
 * in its terminal state's colour (outcomes are states, so the state colours keep their meaning).
 * The text alternative counts the outcomes; each square's title names the run and its state.
 */
export function OutcomesStrip(props: { readonly runs: readonly LoopRun[]; readonly now: number }) {
  const start = props.now - DAYS * DAY_MS;
  const ended = props.runs.filter((run) => run.endedAt !== null && Date.parse(run.endedAt) > start);
  if (ended.length === 0) return null;
  const days = new Map<number, LoopRun[]>();
  for (const run of ended) {
    const day = Math.min(DAYS - 1, Math.floor((Date.parse(run.endedAt ?? "") - start) / DAY_MS));
    days.set(day, [...(days.get(day) ?? []), run]);
  }
  const counts = new Map<string, number>();
  for (const run of ended) counts.set(run.state, (counts.get(run.state) ?? 0) + 1);
  const label = `Outcomes over the last 30 days: ${[...counts].map(([state, n]) => `${n} ${state}`).join(", ")}.`;
  return (
    <ChartSvg label={label} className="outcomes-strip" width={DAYS * CELL} height={STACK * CELL}>
      {[...days].flatMap(([day, runs]) =>
        runs.slice(0, STACK).map((run, i) => (
          <rect
            key={run.id}
            className={`state-${run.state}`}
            data-outcome={run.state}
            x={day * CELL + 1}
            y={(STACK - 1 - i) * CELL + 1}
            width={CELL - 2}
            height={CELL - 2}
          >
            <title>{`${run.id}: ${run.state}, ended ${run.endedAt ?? ""}`}</title>
          </rect>
        )),
      )}
    </ChartSvg>
  );
}
