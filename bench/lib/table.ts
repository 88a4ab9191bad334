import type { FigureLine } from "./figure.ts";

/** The figures as a Markdown table: readable in a terminal and pasted as is into bench/README.md. */
export function markdownTable(lines: readonly FigureLine[]): string {
  const rows = lines.map((line) => [
    line.bench,
    line.figure,
    String(line.median),
    `${line.min}–${line.max}`,
    line.unit,
    String(line.runs),
    line.target ?? "",
    line.ok === null ? "" : line.ok ? "ok" : "MISS",
  ]);
  const header = ["bench", "figure", "median", "min–max", "unit", "runs", "target", ""];
  return [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}
