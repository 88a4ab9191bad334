import { formatCount } from "../shared/format.ts";
import type { Generation } from "./daemon-types.ts";

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
  const step = WIDTH / SHOWN;
  const label = `Tokens per generation, generations ${shown[0]?.number} to ${shown.at(-1)?.number}: ${shown
    .map((g) => formatCount(g.tokens ?? 0))
    .join(", ")}`;
  return (
    <figure className="tokens-chart">
      <svg role="img" aria-label={label} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT}>
        {shown.map((generation, i) => {
          const height = Math.max(1, ((generation.tokens ?? 0) / most) * (HEIGHT - 4));
          return (
            <rect
              key={generation.number}
              x={i * step + 1}
              y={HEIGHT - height}
              width={Math.max(1, step - 2)}
              height={height}
            >
              <title>{`generation ${generation.number}: ${formatCount(generation.tokens ?? 0)} tokens`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted">Tokens per generation (max {formatCount(most)})</figcaption>
    </figure>
  );
}
