import { round, type Summary, summarize } from "./stats.ts";

/** Which direction is good: regressions are judged against it (`bench/compare.ts`). */
export type Better = "lower" | "higher";

/** A target the issue sets for a figure: the median must stay at or below (or above) `value`. */
export interface Target {
  readonly op: "<=" | ">=";
  readonly value: number;
}

/** One line of `npm run bench` output and of `bench/results/*.jsonl`. */
export interface FigureLine {
  readonly bench: string;
  readonly figure: string;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly unit: string;
  /** `"<= 25"`, or null when the issue sets no target for this figure (context only). */
  readonly target: string | null;
  readonly ok: boolean | null;
  readonly runs: number;
  readonly better: Better;
  readonly quick?: true;
  readonly note?: string;
}

export interface FigureSpec {
  readonly bench: string;
  readonly figure: string;
  readonly unit: string;
  readonly target?: Target;
  readonly better?: Better;
  readonly note?: string;
}

/** A figure from its repeated samples. */
export function figure(spec: FigureSpec, samples: readonly number[]): FigureLine {
  return fromSummary(spec, summarize(samples));
}

export function fromSummary(spec: FigureSpec, summary: Summary): FigureLine {
  const { target } = spec;
  const ok =
    target === undefined
      ? null
      : target.op === "<="
        ? summary.median <= target.value
        : summary.median >= target.value;
  return {
    bench: spec.bench,
    figure: spec.figure,
    median: round(summary.median),
    min: round(summary.min),
    max: round(summary.max),
    unit: spec.unit,
    target: target === undefined ? null : `${target.op} ${target.value}`,
    ok,
    runs: summary.runs,
    better: spec.better ?? "lower",
    ...(spec.note !== undefined && { note: spec.note }),
  };
}

export function atMost(value: number): Target {
  return { op: "<=", value };
}

export function atLeast(value: number): Target {
  return { op: ">=", value };
}
