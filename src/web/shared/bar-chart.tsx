import type { ReactNode } from "react";

/** One bar: its value, a key, and the tooltip that says it in words. */
export interface Bar {
  readonly key: string | number;
  readonly value: number;
  readonly title: string;
}

/**
 * A chart as one image for assistive technology: `label` is its text alternative (it should carry the
 * numbers), and it is keyboard reachable so that label can be heard. Shared by the page's charts.
 */
export function ChartSvg(props: {
  readonly label: string;
  readonly className?: string;
  readonly width: number;
  readonly height: number;
  readonly children: ReactNode;
}) {
  return (
    <svg
      role="img"
      aria-label={props.label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the chart to hear its label
      tabIndex={0}
      {...(props.className !== undefined && { className: props.className })}
      viewBox={`0 0 ${props.width} ${props.height}`}
      width={props.width}
      height={props.height}
    >
      {props.children}
    </svg>
  );
}

/** Bars in `slots` equal columns, scaled to the largest value; monochrome (colour is for states). */
export function BarChart(props: {
  readonly bars: readonly Bar[];
  readonly slots: number;
  readonly label: string;
  readonly className?: string;
  readonly width: number;
  readonly height: number;
}) {
  const { bars, slots, width, height } = props;
  const most = Math.max(1, ...bars.map((bar) => bar.value));
  const step = width / slots;
  return (
    <ChartSvg
      label={props.label}
      width={width}
      height={height}
      {...(props.className !== undefined && { className: props.className })}
    >
      {bars.map((bar, i) => {
        const barHeight = Math.max(1, (bar.value / most) * (height - 4));
        return (
          <rect
            key={bar.key}
            x={i * step + 1}
            y={height - barHeight}
            width={Math.max(1, step - 2)}
            height={barHeight}
          >
            <title>{bar.title}</title>
          </rect>
        );
      })}
    </ChartSvg>
  );
}
