import type { HankSummary } from "../../hank/validate/index.ts";
import { renderBox } from "./box.ts";
import { palette, type RenderOptions } from "./style.ts";
import { plural } from "./text.ts";

/** The closing box of a valid hank: what it holds, and the command that runs it. */
export function renderGoodToRun(counts: HankSummary, runCommand: string, options: RenderOptions): string {
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
  return `${box}\n${paint.bold("Run it:")} ${runCommand}`;
}
