import type { JsonPath, ValidationIssue } from "../issues.ts";
import { countLines, readPromptFiles } from "../prompt.ts";
import { codonSlots, type HankView, type PlacedCodon } from "./hank-view.ts";
import type { PromptSummary } from "./validation-types.ts";

/**
 * Prompt and system prompt files: each ref through the strict ref contract, each file read (empty and
 * over-1-MB files warn), and the prompt statistics the `--validate` tree shows.
 */
export interface PromptStage {
  readonly issues: ValidationIssue[];
  readonly prompts: Map<string, PromptSummary>;
  /** The composed text of each codon's prompt files that could be read (for the harness's own check). */
  readonly fileTexts: Map<PlacedCodon, PromptFileText>;
}

export interface PromptFileText {
  readonly text: string;
  /** The file, when the prompt is one file (so an issue can name it). */
  readonly file?: string;
}

export function checkPromptFiles(
  view: HankView,
  codons: readonly PlacedCodon[],
  hankDir: string,
): PromptStage {
  const issues: ValidationIssue[] = [];
  const prompts = new Map<string, PromptSummary>();
  const fileTexts = new Map<PlacedCodon, PromptFileText>();
  if (view.globalSystemPromptFile !== undefined) {
    issues.push(
      ...readIssues(hankDir, view.globalSystemPromptFile, "globalSystemPromptFile", [
        "globalSystemPromptFile",
      ]),
    );
  }
  for (const placed of codons) {
    const { codon, path } = placed;
    if (codon.promptFile !== undefined) {
      const read = readPromptFiles(hankDir, codon.promptFile, {
        field: "promptFile",
        path: [...path, "promptFile"],
      });
      issues.push(...(read.ok ? [] : read.problems), ...read.warnings);
      if (read.ok) {
        const only = read.files.length === 1 ? read.files[0]?.absolutePath : undefined;
        fileTexts.set(placed, only === undefined ? { text: read.text } : { text: read.text, file: only });
      }
      if (read.ok && !prompts.has(codon.id))
        prompts.set(codon.id, { files: read.files.length, lines: read.lines });
    } else if (codon.promptText !== undefined && !prompts.has(codon.id)) {
      prompts.set(codon.id, { files: 1, lines: countLines(codon.promptText) });
    }
    if (codon.appendSystemPromptFile !== undefined) {
      const field = "appendSystemPromptFile";
      issues.push(...readIssues(hankDir, codon.appendSystemPromptFile, field, [...path, field]));
    }
  }
  issues.push(...unparsedCodonFileIssues(view, hankDir));
  return { issues, prompts, fileTexts };
}

/**
 * The prompt files of codons that failed their schema, read all the same: their problems belong to
 * the same round as the schema errors, not to the one after the schema is fixed.
 */
function unparsedCodonFileIssues(view: HankView, hankDir: string): ValidationIssue[] {
  return codonSlots(view).flatMap(({ path, rawFileRefs }) => {
    if (rawFileRefs === undefined) return [];
    return (["promptFile", "appendSystemPromptFile"] as const).flatMap((field) => {
      const refs = rawFileRefs[field];
      return refs === undefined ? [] : readIssues(hankDir, refs, field, [...path, field]);
    });
  });
}

function readIssues(
  hankDir: string,
  refs: string | readonly string[],
  field: string,
  path: JsonPath,
): ValidationIssue[] {
  const read = readPromptFiles(hankDir, refs, { field, path });
  return [...(read.ok ? [] : read.problems), ...read.warnings];
}
