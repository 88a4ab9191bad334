import type { GenerationView as Generation } from "../../events/loop-records.ts";
import { BarChart, ChartSvg } from "../shared/bar-chart.tsx";
import { formatCount, formatMs } from "../shared/format.ts";

const SHOWN = 40;
const WIDTH = 320;
const HEIGHT = 60;

/** Monochrome marks for gate verdicts: colour stays for run states. */
const VERDICT_MARK: Readonly<Record<string, string>> = {
  pass: "✓",
  revise: "↻",
  blocked: "■",
  error: "✕",
  approval: "?",
};

/**
 * Per generation, the latest 40: tokens spent so far against the token budget (a dashed line), wall
 * time per generation, and each generation's gate verdicts and blocker count. Each chart is one
 * focusable image whose text alternative lists its numbers.
 */
export function GenerationCharts(props: {
  readonly generations: readonly Generation[];
  readonly tokenBudget: number | undefined;
}) {
  const shown = props.generations.slice(-SHOWN);
  if (shown.length === 0) return null;
  const before = props.generations.slice(0, -SHOWN).reduce((sum, g) => sum + (g.tokens ?? 0), 0);
  let running = before;
  const cumulative = shown.map((g) => {
    running += g.tokens ?? 0;
    return running;
  });
  const wall = shown.map((g) =>
    g.endedAt === null ? 0 : Math.max(0, Date.parse(g.endedAt) - Date.parse(g.startedAt)),
  );
  return (
    <figure className="generation-charts">
      <CumulativeTokens generations={shown} cumulative={cumulative} budget={props.tokenBudget} />
      <WallBars generations={shown} wall={wall} />
      <ol className="verdicts" aria-label="Gate verdicts per generation">
        {shown.map((g) => (
          <li key={g.number} data-verdicts-of={g.number}>
            <span className="muted">#{g.number}</span>{" "}
            {g.facts.gates.map((gate) => (
              <abbr key={gate.gateId} title={`${gate.gateId}: ${gate.verdict}`} data-verdict={gate.verdict}>
                {VERDICT_MARK[gate.verdict] ?? gate.verdict}
              </abbr>
            ))}
            {blockers(g) > 0 && <span className="muted"> {blockers(g)} blockers</span>}
          </li>
        ))}
      </ol>
      <figcaption className="muted">
        Tokens so far against the budget, wall time per generation, gate verdicts (✓ pass, ↻ revise, ■
        blocked, ✕ error, ? approval)
      </figcaption>
    </figure>
  );
}

function blockers(generation: Generation): number {
  return generation.facts.gates.reduce((sum, gate) => sum + gate.blockerIds.length, 0);
}

function CumulativeTokens(props: {
  readonly generations: readonly Generation[];
  readonly cumulative: readonly number[];
  readonly budget: number | undefined;
}) {
  const { generations, cumulative, budget } = props;
  const top = Math.max(1, budget ?? 0, ...cumulative);
  const step = WIDTH / Math.max(1, generations.length - 1);
  const y = (n: number) => HEIGHT - 2 - (n / top) * (HEIGHT - 4);
  const points = cumulative.map((n, i) => `${(i * step).toFixed(1)},${y(n).toFixed(1)}`).join(" ");
  const label = `Tokens so far after each generation: ${cumulative.map(formatCount).join(", ")}${
    budget === undefined ? "; no token budget" : `; budget ${formatCount(budget)}`
  }.`;
  return (
    <ChartSvg label={label} className="cumulative" width={WIDTH} height={HEIGHT}>
      {budget !== undefined && <line className="budget" x1={0} x2={WIDTH} y1={y(budget)} y2={y(budget)} />}
      <polyline className="line" points={points} fill="none" />
    </ChartSvg>
  );
}

function WallBars(props: { readonly generations: readonly Generation[]; readonly wall: readonly number[] }) {
  const { generations, wall } = props;
  const bars = generations.map((g, i) => ({
    key: g.number,
    value: wall[i] ?? 0,
    title: `generation ${g.number}: ${formatMs(wall[i])}`,
  }));
  const label = `Wall time per generation: ${wall.map((ms) => formatMs(ms)).join(", ")}.`;
  return <BarChart bars={bars} slots={SHOWN} label={label} className="wall" width={WIDTH} height={HEIGHT} />;
}
