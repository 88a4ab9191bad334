import type { GenerationView as Generation } from "../../events/loop-records.ts";
import { BarChart } from "../shared/bar-chart.tsx";
import { formatCount } from "../shared/format.ts";

const SHOWN = 40;
const WIDTH = 320;
const HEIGHT = 80;

/**
 * Tokens per generation, the latest 40 as bars: whether each generation costs about the same or
 * grows is easier seen than read. Monochrome (colour is for states); the numbers are in the label and
 * in each bar's title.
 */
export function TokensChart(props: { readonly generations: readonly Generation[] }) {
  const shown = props.generations.slice(-SHOWN);
  if (shown.length === 0) return null;
  const most = Math.max(1, ...shown.map((g) => g.tokens ?? 0));
  const label = `Tokens per generation, generations ${shown[0]?.number} to ${shown.at(-1)?.number}: ${shown
    .map((g) => formatCount(g.tokens ?? 0))
    .join(", ")}`;
  const bars = shown.map((g) => ({
    key: g.number,
    value: g.tokens ?? 0,
    title: `generation ${g.number}: ${formatCount(g.tokens ?? 0)} tokens`,
  }));
  return (
    <figure className="tokens-chart">
      <BarChart bars={bars} slots={SHOWN} label={label} width={WIDTH} height={HEIGHT} />
      <figcaption className="muted">Tokens per generation (max {formatCount(most)})</figcaption>
    </figure>
  );
}
