import { loadHankFile } from "../../hank/load.ts";
import { validateHank } from "../../hank/validate/index.ts";
import { harnessProblem } from "../../harness/index.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";
import type { BodyFacts } from "../model/admission.ts";

/**
 * What admission needs from the body, read from the hank as written and validated as a run would
 * validate it (the definition's `model` applied): which harnesses its agents run on and whether each
 * can load here (an agent whose harness is missing cannot act), what it checkpoints, what it keeps
 * (outputs, archives), and whether it sets dollar budgets of its own.
 */
export function bodyFacts(definition: Pick<LoopDefinition, "hank" | "model">): BodyFacts {
  const loaded = loadHankFile(definition.hank, process.cwd());
  if (!loaded.ok) {
    const answer = `the body hank does not load (${definition.hank}): ${loaded.issue.message}`;
    return { checkpoints: false, actability: { met: false, answer }, keeps: [], dollarBudgets: false };
  }
  const codons = codonsOf(loaded.raw);
  return {
    checkpoints: codons.some((c) => Array.isArray(c.checkpointedFiles) && c.checkpointedFiles.length > 0),
    actability: actabilityOf(loaded.raw, loaded.hankPath, loaded.hankDir, codons.length, definition.model),
    keeps: [
      ...(codons.some((c) => Array.isArray(c.outputFiles) && c.outputFiles.length > 0) ? ["outputs"] : []),
      ...(codons.some((c) => c.archiveOnSuccess !== undefined) ? ["archives"] : []),
    ],
    dollarBudgets: JSON.stringify(loaded.raw).includes('"maxDollars"'),
  };
}

/** Every codon's model resolves to a harness that loads here: the agents get its tools to act. */
function actabilityOf(
  raw: unknown,
  hankPath: string,
  hankDir: string,
  codons: number,
  model: string | undefined,
): BodyFacts["actability"] {
  if (codons === 0) return { met: false, answer: "the body has no codon: no agent can act on the workspace" };
  const report = validateHank(raw, {
    hankPath,
    hankDir,
    env: process.env,
    harnessProblem,
    ...(model !== undefined && { modelOverride: model }),
  });
  const modelIssue = report.issues.find((i) => i.severity === "error" && /model|harness/.test(i.code));
  if (modelIssue !== undefined)
    return { met: false, answer: `a body agent cannot run: ${modelIssue.message}` };
  const kinds = [...new Set([...report.models.values()].map((m) => m.harness))].sort();
  const missing = kinds.flatMap((kind) => {
    const problem = harnessProblem(kind);
    return problem === undefined ? [] : [`${kind}: ${problem}`];
  });
  if (missing.length > 0)
    return { met: false, answer: `a body agent's harness cannot load here: ${missing.join("; ")}` };
  return {
    met: true,
    answer: `the body's agents run on ${kinds.join(", ")}, whose tools read, change and test the workspace`,
  };
}

function codonsOf(raw: unknown): Array<Record<string, unknown>> {
  const items = (raw as { hank?: unknown })?.hank;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: Record<string, unknown>) =>
    item?.type === "loop" && Array.isArray(item.codons)
      ? (item.codons as Array<Record<string, unknown>>)
      : [item],
  );
}
