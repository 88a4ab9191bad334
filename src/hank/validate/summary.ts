import type { Codon, HankFile } from "../schema/index.ts";
import type { PromptSummary } from "./validation-types.ts";

/**
 * The counts of the `--validate` "GOOD TO RUN!" box, e.g.
 * `2 codons • 2 prompts • 0 system prompts • 0 rigs • 2 checkpoints` (loop bodies counted once).
 */
export interface HankSummary {
  /** Codon configurations, loop children included once. */
  readonly codons: number;
  readonly loops: number;
  /** Prompt files (a promptText counts as one). */
  readonly prompts: number;
  /** Codons with an appended system prompt, plus one for a global system prompt. */
  readonly systemPrompts: number;
  /** Codons with rig setup. */
  readonly rigs: number;
  /** Codons that checkpoint files. */
  readonly checkpoints: number;
}

export function summarizeHank(hank: HankFile, prompts: ReadonlyMap<string, PromptSummary>): HankSummary {
  const codons: Codon[] = hank.hank.flatMap((item) => (item.type === "loop" ? item.codons : [item]));
  const count = (test: (codon: Codon) => boolean) => codons.filter(test).length;
  const global = hank.globalSystemPromptFile !== undefined || hank.globalSystemPromptText !== undefined;
  return {
    codons: codons.length,
    loops: hank.hank.filter((item) => item.type === "loop").length,
    prompts: codons.reduce((sum, codon) => sum + (prompts.get(codon.id)?.files ?? 0), 0),
    systemPrompts:
      count((c) => c.appendSystemPromptFile !== undefined || c.appendSystemPromptText !== undefined) +
      (global ? 1 : 0),
    rigs: count((c) => (c.rigSetup?.length ?? 0) > 0),
    checkpoints: count((c) => (c.checkpointedFiles?.length ?? 0) > 0),
  };
}
