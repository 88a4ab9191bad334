import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The shapes of hank the benchmarks run: N top-level codons, or one codon looped N times. */
export type HankShape =
  | { readonly kind: "codons"; readonly count: number }
  | { readonly kind: "loop"; readonly iterations: number };

export interface HankFixture {
  readonly shape: HankShape;
  /** The scripted prompt of every codon; the default is one line of prose (a no-op turn). */
  readonly prompt?: string;
  readonly checkpointedFiles?: readonly string[];
  /**
   * A codon run first, with its own prompt: `@run true` there makes the checkpoint scan the globs
   * (a shell may change anything), which records a prepared workspace the way a real first codon does.
   */
  readonly setupPrompt?: string;
  /**
   * Budgets to set, so their resolution is part of every codon boundary: `loop` gives the loop a
   * dollar and time budget, `hank` the hank (`overrides.budget`), `both` both. Generous: nothing trips.
   */
  readonly budgets?: "loop" | "hank" | "both";
}

/** A budget no no-op codon comes near, so every codon resolves it and none is stopped by it. */
const AMPLE_BUDGET = { maxDollars: 1_000_000, maxTimeSeconds: 1_000_000 };

/** The prompt of a no-op codon: one assistant message, no tool, no file change. */
export const NOOP_PROMPT = "noop";

function codon(
  id: string,
  fixture: HankFixture,
  prompt = fixture.prompt ?? NOOP_PROMPT,
): Record<string, unknown> {
  return {
    id,
    name: `Codon ${id}`,
    model: "scripted",
    continuationMode: "fresh",
    promptText: prompt,
    ...(fixture.checkpointedFiles !== undefined && { checkpointedFiles: fixture.checkpointedFiles }),
  };
}

export function hankJson(fixture: HankFixture): Record<string, unknown> {
  const { shape } = fixture;
  const hank =
    shape.kind === "codons"
      ? Array.from({ length: shape.count }, (_, i) => codon(`step-${i + 1}`, fixture))
      : [
          {
            type: "loop",
            id: "bench-loop",
            name: "Bench loop",
            terminateOn: { type: "iterationLimit", limit: shape.iterations },
            ...(fixture.budgets === "loop" || fixture.budgets === "both" ? { budget: AMPLE_BUDGET } : {}),
            codons: [codon("step", fixture)],
          },
        ];
  const setup = fixture.setupPrompt === undefined ? [] : [codon("setup", fixture, fixture.setupPrompt)];
  const hankBudget = fixture.budgets === "hank" || fixture.budgets === "both";
  return {
    meta: { name: "hankweave bench", version: "1.0.0" },
    ...(hankBudget && { overrides: { budget: AMPLE_BUDGET } }),
    hank: [...setup, ...hank],
  };
}

/** Writes `<dir>/hank.json` and returns its directory. */
export function writeHank(dir: string, fixture: HankFixture): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hank.json"), `${JSON.stringify(hankJson(fixture), null, 2)}\n`);
  return dir;
}
