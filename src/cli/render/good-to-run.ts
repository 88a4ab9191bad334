import type { HankSummary } from "../../hank/validate/index.ts";
import { renderBox } from "./box.ts";
import { palette, type RenderOptions } from "./style.ts";
import { plural } from "./text.ts";

/**
 * The closing box of a valid hank: what it holds, and the command that runs it. `offlineCommand`, when
 * given, is the same run with the scripted agent: it needs no API key.
 */
export function renderGoodToRun(
  counts: HankSummary,
  runCommand: string,
  options: RenderOptions,
  offlineCommand?: string,
): string {
  const paint = palette(options.color);
  const summary = [
    plural(counts.codons, "codon"),
    plural(counts.prompts, "prompt"),
    plural(counts.systemPrompts, "system prompt"),
    plural(counts.rigs, "rig"),
    plural(counts.checkpoints, "checkpoint"),
  ].join(" • ");
  const box = renderBox([summary], {
    width: options.width,
    title: paint.bold("GOOD TO RUN!"),
    tone: paint.green,
  });
  const run = `${box}\n${paint.bold("Run it:")} ${runCommand}`;
  if (offlineCommand === undefined) return run;
  // On a line of its own: the report keeps within the terminal's width (COLUMNS) where it can.
  return `${run}\n${paint.bold("Offline, no API key:")}\n  ${offlineCommand}`;
}
