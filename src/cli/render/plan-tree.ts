import type { ResolvedModel } from "../../hank/models/index.ts";
import type { Codon, CodonBudget, ContainerBudget, HankFile, Loop } from "../../hank/schema/index.ts";
import { groupThousands } from "../../util/group-thousands.ts";
import { type Palette, palette, type RenderOptions } from "./style.ts";
import { packParts, plural, wrapText } from "./text.ts";

/** What the tree shows beyond the hank itself, as the validator reports it. */
export interface PlanTreeFacts {
  /** Prompt files and line counts, by codon id. */
  readonly prompts: ReadonlyMap<string, { readonly files: number; readonly lines: number }>;
  /** Resolved models, by the id the hank requests. */
  readonly models: ReadonlyMap<string, ResolvedModel>;
}

/**
 * The hank as a tree, in run order: top-level items numbered `[1]`, `[2]`, loop bodies `[2.1]`,
 * `[2.2]`, each codon with its model, continuation mode, prompts and the features it uses.
 */
export function renderPlanTree(hank: HankFile, facts: PlanTreeFacts, options: RenderOptions): string {
  const paint = palette(options.color);
  const lines: string[] = [];
  hank.hank.forEach((item, index) => {
    const last = index === hank.hank.length - 1;
    const label = `[${index + 1}]`;
    const branch = last ? "└─ " : "├─ ";
    const rail = last ? "   " : "│  ";
    if (item.type === "loop")
      lines.push(...loopLines(item, label, { branch, rail }, facts, paint, options.width));
    else lines.push(...codonLines(item, label, { branch, rail }, facts, paint, options.width));
    if (!last) lines.push("│");
  });
  return lines.join("\n");
}

interface Indent {
  /** Prefix of the item's own line. */
  readonly branch: string;
  /** Prefix of the lines below it. */
  readonly rail: string;
}

function loopLines(
  loop: Loop,
  label: string,
  indent: Indent,
  facts: PlanTreeFacts,
  paint: Palette,
  width: number,
): string[] {
  const repeat =
    loop.terminateOn.type === "iterationLimit"
      ? `× ${loop.terminateOn.limit} ${loop.terminateOn.limit === 1 ? "iteration" : "iterations"}`
      : "until context exceeded";
  const lines = headLines(indent, label, `LOOP: ${loop.id}`, ` (${loop.name}) ${repeat}`, paint, width);
  const budget = budgetText(loop.budget);
  if (budget !== undefined) {
    const detailIndent = `${indent.rail}  `;
    const budgetLines = packParts([`budget: ${budget}`], width - detailIndent.length);
    lines.push(...budgetLines.map((line) => detailIndent + paint.dim(line)));
  }
  loop.codons.forEach((codon, index) => {
    const last = index === loop.codons.length - 1;
    const child: Indent = {
      branch: `${indent.rail}  ${last ? "└─ " : "├─ "}`,
      rail: `${indent.rail}  ${last ? "   " : "│  "}`,
    };
    lines.push(...codonLines(codon, `${label.slice(0, -1)}.${index + 1}]`, child, facts, paint, width));
  });
  return lines;
}

function codonLines(
  codon: Codon,
  label: string,
  indent: Indent,
  facts: PlanTreeFacts,
  paint: Palette,
  width: number,
): string[] {
  const head = headLines(indent, label, codon.id, ` (${codon.name})`, paint, width);
  const detailIndent = `${indent.rail}  `;
  const { core, extras } = codonDetails(codon, facts);
  const details = [
    ...packParts(core, width - detailIndent.length),
    ...packParts(extras, width - detailIndent.length),
  ];
  return [...head, ...details.map((line) => detailIndent + paint.dim(line))];
}

/** An item's title line, `[2.1] id (name)`, wrapped under the item when it is too wide. */
function headLines(
  indent: Indent,
  label: string,
  title: string,
  rest: string,
  paint: Palette,
  width: number,
): string[] {
  const lead = `${label} ${title}`;
  const [first = "", ...more] = wrapText(lead + rest, width - indent.branch.length);
  const painted = first.startsWith(lead)
    ? `${paint.cyan(label)} ${paint.bold(title)}${first.slice(lead.length)}`
    : `${paint.cyan(label)}${first.slice(label.length)}`;
  return [indent.branch + painted, ...more.map((line) => `${indent.rail}  ${line}`)];
}

/**
 * The labelled facts of one codon: the core (model, mode, prompts) that every codon has, and the
 * extras it opts into. Each group starts on its own line.
 */
export function codonDetails(codon: Codon, facts: PlanTreeFacts): { core: string[]; extras: string[] } {
  const core = [
    `model: ${modelText(codon.model, facts.models.get(codon.model))}`,
    `mode: ${codon.continuationMode}`,
    `prompts: ${promptText(codon, facts.prompts.get(codon.id))}`,
  ];
  const parts: string[] = [];
  if (codon.appendSystemPromptFile !== undefined || codon.appendSystemPromptText !== undefined) {
    parts.push("system prompt: appended");
  }
  if (codon.checkpointedFiles !== undefined)
    parts.push(`checkpointedGlobs: ${codon.checkpointedFiles.length}`);
  if (codon.rigSetup !== undefined) parts.push(`rig: ${plural(codon.rigSetup.length, "op")}`);
  if (codon.outputFiles !== undefined) parts.push(`outputs: ${plural(codon.outputFiles.length, "group")}`);
  if (codon.onFailure !== undefined && codon.onFailure !== "abort")
    parts.push(`onFailure: ${codon.onFailure}`);
  if (codon.exhaustWithPrompt !== undefined) parts.push("extends until context exhausted");
  const budget = budgetText(codon.budget);
  if (budget !== undefined) parts.push(`budget: ${budget}`);
  return { core, extras: parts };
}

function modelText(requested: string, resolved: ResolvedModel | undefined): string {
  if (resolved === undefined || resolved.id === requested) return requested;
  return `${requested} (${resolved.provider}/${resolved.id})`;
}

function promptText(codon: Codon, prompt: { files: number; lines: number } | undefined): string {
  if (prompt !== undefined)
    return `${prompt.files === 0 ? 1 : prompt.files} (${plural(prompt.lines, "line")})`;
  if (codon.promptText !== undefined) return `1 (${plural(codon.promptText.split("\n").length, "line")})`;
  const files =
    codon.promptFile === undefined ? 0 : typeof codon.promptFile === "string" ? 1 : codon.promptFile.length;
  return String(files);
}

/** `$5.00 • 600 s • 20,000 output tokens`, or undefined when the budget caps nothing. */
export function budgetText(budget: CodonBudget | ContainerBudget | undefined): string | undefined {
  if (budget === undefined) return undefined;
  const caps: string[] = [];
  if (budget.maxDollars !== undefined) caps.push(`$${budget.maxDollars.toFixed(2)}`);
  if (budget.maxTimeSeconds !== undefined) caps.push(`${budget.maxTimeSeconds} s`);
  if ("maxOutputTokens" in budget && budget.maxOutputTokens !== undefined) {
    caps.push(`${groupThousands(budget.maxOutputTokens)} output tokens`);
  }
  if ("maxContextTokens" in budget && budget.maxContextTokens !== undefined) {
    caps.push(`${groupThousands(budget.maxContextTokens)} context tokens`);
  }
  if ("allocation" in budget && budget.allocation !== undefined) caps.push(budget.allocation);
  return caps.length === 0 ? undefined : caps.join(" • ");
}
