import type { HankFile } from "../../hank/schema/index.ts";
import type { HankSummary } from "../../hank/validate/index.ts";
import { renderBox } from "./box.ts";
import { palette, type RenderOptions } from "./style.ts";
import { plural } from "./text.ts";

/** The hank's own box: its name and version (the file name when it has no meta), and its size. */
export function renderHankTitle(
  hank: HankFile,
  counts: HankSummary,
  fallbackName: string,
  options: RenderOptions,
): string {
  const paint = palette(options.color);
  const title = hank.meta === undefined ? fallbackName : `${hank.meta.name} v${hank.meta.version}`;
  const size = [plural(counts.codons, "codon"), ...(counts.loops > 0 ? [plural(counts.loops, "loop")] : [])];
  const lines = [paint.bold(title)];
  if (hank.meta?.description !== undefined) lines.push(hank.meta.description);
  lines.push(paint.dim(size.join(" • ")));
  return renderBox(lines, { width: options.width, tone: paint.dim });
}
