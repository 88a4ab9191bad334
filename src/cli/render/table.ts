import { padVisible, visibleLength } from "./text.ts";

/**
 * A plain text table: a header row and data rows, columns padded to their widest cell and separated
 * by two spaces. Trailing spaces are trimmed.
 */
export function renderTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  indent = "",
): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => visibleLength(row[column] ?? ""))));
  return all.map((row) => {
    const cells = widths.map((width, column) => padVisible(row[column] ?? "", width));
    return (indent + cells.join("  ")).trimEnd();
  });
}
