import { padVisible, visibleLength, wrapText } from "./text.ts";

export interface BoxOptions {
  /** Maximum outer width, borders included. */
  readonly width: number;
  /** Shown in the top border: `╭─ TITLE ───╮`. */
  readonly title?: string;
  /** Paints the border (and title); plain when absent. */
  readonly tone?: (text: string) => string;
}

/**
 * A rounded box around lines of plain text, as wide as its content (and its title) needs and never
 * wider than `width`; longer lines wrap.
 */
export function renderBox(lines: readonly string[], options: BoxOptions): string {
  const tone = options.tone ?? ((text: string) => text);
  const maxInner = Math.max(1, options.width - 4);
  const wrapped = lines.flatMap((line) =>
    visibleLength(line) <= maxInner ? [line] : wrapText(line, maxInner),
  );
  const titleWidth = options.title === undefined ? 0 : visibleLength(options.title) + 4;
  const inner = Math.min(maxInner, Math.max(titleWidth, ...wrapped.map(visibleLength)));
  const top =
    options.title === undefined
      ? `╭${"─".repeat(inner + 2)}╮`
      : `╭─ ${options.title} ${"─".repeat(Math.max(0, inner - visibleLength(options.title) - 1))}╮`;
  const body = wrapped.map((line) => `${tone("│")} ${padVisible(line, inner)} ${tone("│")}`);
  return [tone(top), ...body, tone(`╰${"─".repeat(inner + 2)}╯`)].join("\n");
}
