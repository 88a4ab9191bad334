import { formatCount, formatMs, formatUsd } from "../shared/format.ts";
import type { AttemptBar, CumulativePoint } from "./attempt-bars.ts";

const WIDTH = 640;
const ROW = 14;
const LINE_HEIGHT = 60;

/**
 * The run as a Gantt strip: each codon attempt a bar against wall time, coloured by status (the status
 * colours, used for nothing else), one row per attempt; under it the cumulative cost against the
 * ceiling when one is set, and the cumulative tokens, on the same time axis. The figure is one focusable image with a text alternative that says what
 * it shows; each bar's title names the attempt and how it ended.
 */
export function AttemptStrip(props: {
  readonly bars: readonly AttemptBar[];
  readonly cost: readonly CumulativePoint[];
  readonly tokens: readonly CumulativePoint[];
  readonly ceilingUsd: number | undefined;
  readonly nowMs: number;
}) {
  const { bars, cost, tokens, ceilingUsd, nowMs } = props;
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
      <CumulativeLine
        points={cost}
        {...(ceilingUsd !== undefined && {
          ceiling: { value: ceilingUsd, title: `ceiling ${formatUsd(ceilingUsd)}` },
        })}
        x={x}
        className="cost-line"
        label={(last) =>
          `Cost over time: ${formatUsd(last)}${ceilingUsd === undefined ? "" : ` of a ${formatUsd(ceilingUsd)} ceiling`}.`
        }
      />
      <CumulativeLine
        points={tokens}
        x={x}
        className="tokens-line"
        label={(last) => `Tokens over time: ${formatCount(last)} in and out.`}
      />
      <figcaption className="muted">
        Codon attempts against wall time ({formatMs(endMs - startMs)}), one row per attempt
      </figcaption>
    </figure>
  );
}

/** A running total against the strip's time axis, with its ceiling as a dashed line when it has one. */
function CumulativeLine(props: {
  readonly points: readonly CumulativePoint[];
  /** A ceiling to draw as a dashed line, with its tooltip. */
  readonly ceiling?: { readonly value: number; readonly title: string };
  readonly x: (ms: number) => number;
  readonly className: string;
  readonly label: (last: number) => string;
}) {
  const { points, ceiling, x } = props;
  const last = points.at(-1);
  if (last === undefined) return null;
  const top = Math.max(last.value, ceiling?.value ?? 0, 1e-9);
  const y = (value: number) => LINE_HEIGHT - 2 - (value / top) * (LINE_HEIGHT - 4);
  const line = points.map((p) => `${x(p.atMs).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  return (
    <svg
      className={props.className}
      role="img"
      aria-label={props.label(last.value)}
      viewBox={`0 0 ${WIDTH} ${LINE_HEIGHT}`}
      width="100%"
      preserveAspectRatio="none"
    >
      {ceiling !== undefined && (
        <line className="ceiling" x1={0} x2={WIDTH} y1={y(ceiling.value)} y2={y(ceiling.value)}>
          <title>{ceiling.title}</title>
        </line>
      )}
      <polyline
        className="total"
        points={`${x(points[0]?.atMs ?? 0).toFixed(1)},${y(0)} ${line}`}
        fill="none"
      />
    </svg>
  );
}
