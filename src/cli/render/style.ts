import pc from "picocolors";

/** Formatting choices passed to every renderer; renderers hold no state of their own. */
export interface RenderOptions {
  /** ANSI colours on or off (off when stdout is not a TTY or NO_COLOR is set). */
  readonly color: boolean;
  /** Maximum line width in columns. */
  readonly width: number;
}

type Paint = (text: string) => string;

export interface Palette {
  readonly bold: Paint;
  readonly dim: Paint;
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly cyan: Paint;
}

export function palette(color: boolean): Palette {
  const colors = pc.createColors(color);
  return {
    bold: colors.bold,
    dim: colors.dim,
    red: colors.red,
    green: colors.green,
    yellow: colors.yellow,
    cyan: colors.cyan,
  };
}

export const MAX_WIDTH = 120;
export const DEFAULT_WIDTH = 80;

/** Render width: the terminal's columns when known, never more than 120. */
export function renderWidth(columns: number | undefined): number {
  return Math.min(columns !== undefined && columns > 0 ? columns : DEFAULT_WIDTH, MAX_WIDTH);
}

/** Colour is used only on a terminal, and never when NO_COLOR is set (any value, per no-color.org). */
export function colorWanted(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && env.NO_COLOR === undefined;
}

/** Whether the environment says CI, as ink reads it: CI or CONTINUOUS_INTEGRATION set, and not "0" or "false". */
export function inCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const says = (value: string | undefined) => value !== undefined && value !== "0" && value !== "false";
  return says(env.CI) || says(env.CONTINUOUS_INTEGRATION);
}

/**
 * The TUI needs a terminal on both ends and an environment outside CI: in CI, ink draws only the
 * final frame, so a run there prints its lines instead of a screen that stays blank until the end.
 */
export function tuiWanted(
  headless: boolean,
  terminal: { readonly stdin: boolean; readonly stdout: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return !headless && terminal.stdin && terminal.stdout && !inCi(env);
}
