import type { HeldPrompts, PromptMetadata } from "../../hank/prompt.ts";
import { applyTemplateVariables, readPromptFiles, stripHtmlComments } from "../../hank/prompt.ts";
import type { Codon, FileRefs, HankFile } from "../../hank/schema/index.ts";

/** The texts a codon session starts with. Failures to read are values, with the validator's messages. */
export type BuiltPrompts =
  | {
      readonly ok: true;
      readonly prompt: string;
      readonly systemPrompt?: string;
      readonly metadata?: PromptMetadata;
    }
  | { readonly ok: false; readonly message: string };

interface PromptPart {
  readonly ok: boolean;
  readonly text: string;
  readonly message: string;
  readonly metadata?: PromptMetadata;
}

/**
 * Reads a file-or-text pair. Files are read when the codon starts, so the run uses the prompts as they
 * are then; comments are stripped from both forms and template variables resolved to the workspace.
 */
function readPart(
  where: PromptPlace,
  files: FileRefs | undefined,
  text: string | undefined,
  field: string,
): PromptPart {
  const { hankDir, agentRoot } = where;
  const vars = { agentRoot, ...(where.loop !== undefined && { loop: where.loop }) };
  if (files !== undefined) {
    const read = readPromptFiles(hankDir, files, {
      field,
      ...(where.held !== undefined && { held: where.held }),
    });
    if (!read.ok) return { ok: false, text: "", message: read.problems.map((p) => p.message).join("; ") };
    const resolved = applyTemplateVariables(read.text, vars);
    return { ok: true, text: resolved, message: "", ...(read.metadata && { metadata: read.metadata }) };
  }
  const cleaned = applyTemplateVariables(stripHtmlComments(text ?? ""), vars);
  return { ok: true, text: cleaned, message: "" };
}

/** Where a codon's prompts come from: the hank's directory, the workspace, and files held in memory. */
export interface PromptPlace {
  readonly hankDir: string;
  readonly agentRoot: string;
  readonly held?: HeldPrompts;
  /** A Loop's context (`LOOP_GENERATION`...), from the run's `HANKWEAVE_LOOP_*` environment. */
  readonly loop?: Readonly<Record<string, string>>;
}

export function buildPrompts(hank: HankFile, codon: Codon, where: PromptPlace): BuiltPrompts {
  const prompt = readPart(where, codon.promptFile, codon.promptText, "promptFile");
  if (!prompt.ok) return { ok: false, message: prompt.message };
  const global = readPart(
    where,
    hank.globalSystemPromptFile,
    hank.globalSystemPromptText,
    "globalSystemPromptFile",
  );
  if (!global.ok) return { ok: false, message: global.message };
  const append = readPart(
    where,
    codon.appendSystemPromptFile,
    codon.appendSystemPromptText,
    "appendSystemPromptFile",
  );
  if (!append.ok) return { ok: false, message: append.message };
  const system = [global.text.trim(), append.text.trim()].filter((t) => t !== "").join("\n\n");
  return {
    ok: true,
    prompt: prompt.text,
    ...(system !== "" && { systemPrompt: system }),
    ...(prompt.metadata && { metadata: prompt.metadata }),
  };
}
