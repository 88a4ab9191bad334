import { formatMs, formatUsd } from "../shared/format.ts";
import type { AttemptBar, CostPoint } from "./attempt-bars.ts";

const WIDTH = 640;
const ROW = 14;
const COST_HEIGHT = 60;

/**
 * The run as a Gantt strip: each codon attempt a bar against wall time, coloured by status (the status
 * colours, used for nothing else), one row per attempt; under it the cumulative cost against the
 * ceiling when one is set. The figure is one focusable image with a text alternative that says what
 * it shows; each bar's title names the attempt and how it ended.
 */
export function AttemptStrip(props: {
  readonly bars: readonly AttemptBar[];
  readonly cost: readonly CostPoint[];
  readonly ceilingUsd: number | undefined;
  readonly nowMs: number;
}) {
  const { bars, cost, ceilingUsd, nowMs } = props;
  const first = bars[0];
  if (first === undefined) return null;
  const startMs = first.startMs;
  const endMs = Math.max(startMs + 1, ...bars.map((b) => b.endMs ?? nowMs));
  const x = (ms: number) => ((ms - startMs) / (endMs - startMs)) * (WIDTH - 2) + 1;
  const height = bars.length * ROW;
  const failed = bars.filter((b) => b.status === "failed").length;
  const label = `Timeline of ${bars.length} codon attempts over ${formatMs(endMs - startMs)}: ${
    bars.filter((b) => b.status === "completed").length
  } completed, ${failed} failed, ${bars.filter((b) => b.status === "running").length} running.`;
  return (
    <figure className="attempt-strip" aria-label="Codon attempts over time">
      <svg
        role="img"
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the chart to hear its label
        tabIndex={0}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="none"
      >
        {bars.map((bar, i) => (
          <rect
            key={`${bar.codonId}-${bar.attempt}-${bar.startMs}`}
            className={`bar bar-${bar.status}`}
            data-codon={bar.codonId}
            data-status={bar.status}
            x={x(bar.startMs)}
            y={i * ROW + 2}
            width={Math.max(2, x(bar.endMs ?? nowMs) - x(bar.startMs))}
            height={ROW - 4}
          >
            <title>{`${bar.codonId}, attempt ${bar.attempt}: ${bar.end ?? "running"}, ${formatMs((bar.endMs ?? nowMs) - bar.startMs)}`}</title>
          </rect>
        ))}
      </svg>
      <CostLine cost={cost} ceilingUsd={ceilingUsd} x={x} />
      <figcaption className="muted">
        Codon attempts against wall time ({formatMs(endMs - startMs)}), one row per attempt
      </figcaption>
    </figure>
  );
}

function CostLine(props: {
  readonly cost: readonly CostPoint[];
  readonly ceilingUsd: number | undefined;
  readonly x: (ms: number) => number;
}) {
  const { cost, ceilingUsd, x } = props;
  const last = cost.at(-1);
  if (last === undefined) return null;
  const top = Math.max(last.usd, ceilingUsd ?? 0, 1e-9);
  const y = (usd: number) => COST_HEIGHT - 2 - (usd / top) * (COST_HEIGHT - 4);
  const points = cost.map((p) => `${x(p.atMs).toFixed(1)},${y(p.usd).toFixed(1)}`).join(" ");
  const label = `Cost over time: ${formatUsd(last.usd)}${ceilingUsd === undefined ? "" : ` of a ${formatUsd(ceilingUsd)} ceiling`}.`;
  return (
    <svg
      className="cost-line"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${COST_HEIGHT}`}
      width="100%"
      preserveAspectRatio="none"
    >
      {ceilingUsd !== undefined && (
        <line className="ceiling" x1={0} x2={WIDTH} y1={y(ceilingUsd)} y2={y(ceilingUsd)}>
          <title>{`ceiling ${formatUsd(ceilingUsd)}`}</title>
        </line>
      )}
      <polyline
        className="cost"
        points={`${x(cost[0]?.atMs ?? 0).toFixed(1)},${y(0)} ${points}`}
        fill="none"
      />
    </svg>
  );
}
