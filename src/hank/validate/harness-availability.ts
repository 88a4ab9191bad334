import { type ValidationIssue, warning } from "../issues.ts";
import type { HarnessKind, ResolvedModel } from "../models/index.ts";
import type { Codon } from "../schema/index.ts";
import type { PlacedCodon } from "./hank-view.ts";

/** What the composition root knows about a harness here: undefined when it can run, else why not. */
export type HarnessProblem = (kind: HarnessKind) => string | undefined;

/**
 * A model whose harness cannot load here (its SDK is not installed) draws one warning per harness, at
 * the first codon that needs it, with the install hint. A warning, not an error: the hank is valid and
 * may run elsewhere; a run here fails that codon with the same hint.
 */
export function checkHarnessAvailability(
  codons: readonly PlacedCodon[],
  modelOf: (codon: Codon) => ResolvedModel | undefined,
  problem: HarnessProblem | undefined,
): ValidationIssue[] {
  if (problem === undefined) return [];
  const seen = new Set<HarnessKind>();
  const issues: ValidationIssue[] = [];
  for (const { codon, path } of codons) {
    const model = modelOf(codon);
    if (model === undefined || seen.has(model.harness)) continue;
    seen.add(model.harness);
    const why = problem(model.harness);
    if (why === undefined) continue;
    issues.push(
      warning(
        "harness-unavailable",
        [...path, "model"],
        `Model '${model.requested}' runs on the ${model.harness} harness, which cannot load here.`,
        why,
      ),
    );
  }
  return issues;
}
