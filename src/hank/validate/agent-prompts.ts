import type { JsonPath, ValidationIssue } from "../issues.ts";
import type { ResolvedModel } from "../models/index.ts";
import { applyTemplateVariables, stripHtmlComments } from "../prompt.ts";
import type { Codon } from "../schema/index.ts";
import type { PlacedCodon } from "./hank-view.ts";
import type { PromptFileText } from "./prompt-files.ts";
import type { PromptLineProblem } from "./validation-types.ts";

/** What the composition root says a harness would refuse in a prompt. */
export type PromptCheck = (kind: ResolvedModel["harness"], prompt: string) => readonly PromptLineProblem[];

/** Template variables resolve to the workspace at run time; any absolute path reads the same here. */
const PLACEHOLDER_ROOT = "/agent-root";

/**
 * The prompts each codon's harness would refuse at run time (the scripted agent's script errors), so
 * validation reports them instead of the run failing the codon: the prompt (text or files, as the run
 * composes it) and the `exhaustWithPrompt` text, one error per bad line.
 */
export function checkAgentPrompts(
  codons: readonly PlacedCodon[],
  modelOf: (codon: Codon) => ResolvedModel | undefined,
  fileTexts: ReadonlyMap<PlacedCodon, PromptFileText>,
  check: PromptCheck | undefined,
): ValidationIssue[] {
  if (check === undefined) return [];
  return codons.flatMap((placed) => {
    const model = modelOf(placed.codon);
    if (model === undefined) return [];
    return promptsOf(placed, fileTexts).flatMap(({ field, text, file }) =>
      check(model.harness, text).map((problem) => lineIssue(model, [...placed.path, field], problem, file)),
    );
  });
}

interface PromptToCheck {
  readonly field: "promptText" | "promptFile" | "exhaustWithPrompt";
  readonly text: string;
  readonly file?: string;
}

function promptsOf(
  placed: PlacedCodon,
  fileTexts: ReadonlyMap<PlacedCodon, PromptFileText>,
): PromptToCheck[] {
  const { codon } = placed;
  const out: PromptToCheck[] = [];
  const fromFiles = fileTexts.get(placed);
  if (codon.promptFile !== undefined && fromFiles !== undefined) {
    out.push({ field: "promptFile", ...fromFiles, text: resolve(fromFiles.text) });
  } else if (codon.promptFile === undefined && codon.promptText !== undefined) {
    out.push({ field: "promptText", text: resolve(stripHtmlComments(codon.promptText)) });
  }
  // The run sends the extension prompt as written: no comment stripping, no template variables.
  if (codon.exhaustWithPrompt !== undefined)
    out.push({ field: "exhaustWithPrompt", text: codon.exhaustWithPrompt });
  return out;
}

function resolve(text: string): string {
  return applyTemplateVariables(text, { agentRoot: PLACEHOLDER_ROOT });
}

function lineIssue(
  model: ResolvedModel,
  path: JsonPath,
  problem: PromptLineProblem,
  file: string | undefined,
): ValidationIssue {
  const issue: ValidationIssue = {
    severity: "error",
    code: "agent-prompt-invalid",
    path,
    message: `Model '${model.requested}' runs on the ${model.harness} agent, which would refuse line ${problem.line} of this prompt: ${problem.message}`,
    hint:
      model.harness === "scripted"
        ? "Fix the directive; docs/scripted-agent.md lists every directive and its arguments."
        : "Fix the prompt line.",
  };
  return file === undefined ? issue : { ...issue, file };
}
