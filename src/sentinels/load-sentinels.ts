import { readFileSync } from "node:fs";
import type { JsonPath } from "../hank/issues.ts";
import { readPromptFiles } from "../hank/prompt.ts";
import { checkRef } from "../hank/refs.ts";
import type { Codon, SentinelConfig, SentinelEntry } from "../hank/schema/index.ts";
import { loadSentinelConfig, sentinelConfigIssues } from "../hank/validate/sentinel-checks.ts";
import type { SentinelModel } from "./sentinel-model.ts";
import {
  type OutputPlace,
  prepareOutputs,
  type SentinelOutputs,
  sentinelOutputs,
} from "./sentinel-outputs.ts";
import { compileStructured, type StructuredSpec } from "./structured-output.ts";
import { compileTemplate, type PromptTemplate } from "./templates.ts";

/** Which sentinel events a sentinel journals (defaults: all but `sentinel.triggered`). */
export interface SentinelReporting {
  readonly lifecycle: boolean;
  readonly errors: boolean;
  readonly outputs: boolean;
  readonly triggers: boolean;
}

/** A sentinel ready to run for one codon: its config checked and everything it needs compiled. */
export interface SentinelDefinition {
  readonly config: SentinelConfig;
  readonly source: "file" | "inline";
  /** The sentinel file as the hank names it. */
  readonly sourcePath?: string;
  readonly user: PromptTemplate;
  readonly system?: PromptTemplate;
  readonly structured?: StructuredSpec;
  readonly outputs: SentinelOutputs;
  readonly reporting: SentinelReporting;
  readonly model: SentinelModel;
}

/** A sentinel that could not be loaded; `required` when its entry sets `failCodonIfNotLoaded`. */
export interface LoadProblem {
  readonly ref: string;
  readonly message: string;
  readonly required: boolean;
}

export interface LoadContext extends OutputPlace {
  readonly hankDir: string;
  /** Output directories already made by this run, so later loads skip the file system. */
  readonly madeDirs: Set<string>;
  /** The model a sentinel calls, or why it cannot have one. */
  modelFor(
    config: SentinelConfig,
  ): { readonly ok: true; readonly model: SentinelModel } | { readonly ok: false; readonly message: string };
}

/**
 * Loads a codon's sentinels as they are on disk now, checked as the validator checks them (a file may
 * have changed since), then compiled: prompts read and compiled as Eta templates, the structured-output
 * schema built, the model chosen and the output directories created. Every entry is loaded or reported;
 * a problem never stops the others.
 */
export function loadCodonSentinels(
  codon: Codon,
  context: LoadContext,
): { readonly definitions: SentinelDefinition[]; readonly problems: LoadProblem[] } {
  const definitions: SentinelDefinition[] = [];
  const problems: LoadProblem[] = [];
  const ids = new Set<string>();
  for (const [k, entry] of (codon.sentinels ?? []).entries()) {
    const ref = typeof entry.sentinelConfig === "string" ? entry.sentinelConfig : entry.sentinelConfig.id;
    const loaded = loadEntry(entry, ["sentinels", k, "sentinelConfig"], context);
    const duplicate = loaded.ok && ids.has(loaded.definition.config.id);
    if (loaded.ok && !duplicate) {
      ids.add(loaded.definition.config.id);
      definitions.push(loaded.definition);
      continue;
    }
    const message = loaded.ok
      ? `duplicate sentinel id "${loaded.definition.config.id}" in this codon`
      : loaded.message;
    problems.push({ ref, message, required: entry.settings?.failCodonIfNotLoaded === true });
  }
  return { definitions, problems };
}

type EntryLoad =
  | { readonly ok: true; readonly definition: SentinelDefinition }
  | { readonly ok: false; readonly message: string };

function loadEntry(entry: SentinelEntry, at: JsonPath, context: LoadContext): EntryLoad {
  const { hankDir } = context;
  const loaded = loadSentinelConfig(entry, at, hankDir);
  const { config, base } = loaded;
  const issues =
    config === undefined ? loaded.issues : sentinelConfigIssues(config, entry, at, { hankDir, base });
  if (config === undefined || issues.length > 0) {
    return { ok: false, message: issues.map((issue) => issue.message).join("; ") || "the config is invalid" };
  }
  const compiled = compile(config, base, context);
  if (!compiled.ok) return { ok: false, message: `Sentinel "${config.id}": ${compiled.message}` };
  const outputs = sentinelOutputs(config, entry.settings, context);
  try {
    prepareOutputs(outputs, context.madeDirs);
  } catch (caught) {
    return {
      ok: false,
      message: `Sentinel "${config.id}": its output directory cannot be created: ${String(caught)}`,
    };
  }
  const definition: SentinelDefinition = {
    ...compiled.parts,
    config,
    source: typeof entry.sentinelConfig === "string" ? "file" : "inline",
    ...(typeof entry.sentinelConfig === "string" && { sourcePath: entry.sentinelConfig }),
    outputs,
    reporting: reportingOf(config, entry),
  };
  return { ok: true, definition };
}

type Parts = Pick<SentinelDefinition, "user" | "system" | "structured" | "model">;

function compile(
  config: SentinelConfig,
  base: string | undefined,
  context: LoadContext,
): { readonly ok: true; readonly parts: Parts } | { readonly ok: false; readonly message: string } {
  const user = template(config.userPromptFile, config.userPromptText, base, context.hankDir);
  if (!user.ok) return { ok: false, message: `user prompt: ${user.message}` };
  const system = template(config.systemPromptFile, config.systemPromptText, base, context.hankDir);
  if (!system.ok) return { ok: false, message: `system prompt: ${system.message}` };
  let structured: StructuredSpec | undefined;
  if (config.structuredOutput !== undefined) {
    const text = schemaText(config, base, context.hankDir);
    const spec = compileStructured(config.structuredOutput, text);
    if (!spec.ok) return { ok: false, message: `structuredOutput: ${spec.message}` };
    structured = spec.spec;
  }
  const model = context.modelFor(config);
  if (!model.ok) return model;
  if (user.template === undefined) return { ok: false, message: "a user prompt is required" };
  const parts: Parts = {
    user: user.template,
    ...(system.template !== undefined && { system: system.template }),
    ...(structured !== undefined && { structured }),
    model: model.model,
  };
  return { ok: true, parts };
}

type TemplateLoad =
  | { readonly ok: true; readonly template: PromptTemplate | undefined }
  | { readonly ok: false; readonly message: string };

function template(
  files: string | readonly string[] | undefined,
  text: string | undefined,
  base: string | undefined,
  hankDir: string,
): TemplateLoad {
  let source = text;
  if (files !== undefined) {
    const read = readPromptFiles(hankDir, files, base === undefined ? {} : { base });
    if (!read.ok) return { ok: false, message: read.problems.map((p) => p.message).join("; ") };
    source = read.text;
  }
  if (source === undefined) return { ok: true, template: undefined };
  const compiled = compileTemplate(source);
  return compiled.ok ? { ok: true, template: compiled.template } : compiled;
}

function schemaText(config: SentinelConfig, base: string | undefined, hankDir: string): string | undefined {
  const structured = config.structuredOutput;
  if (structured?.schemaFile === undefined) return structured?.schemaStr;
  const checked = checkRef(hankDir, structured.schemaFile, "file", base === undefined ? {} : { base });
  if (!checked.ok) return undefined;
  try {
    return readFileSync(checked.absolutePath, "utf8");
  } catch {
    return undefined;
  }
}

function reportingOf(config: SentinelConfig, entry: SentinelEntry): SentinelReporting {
  const own = config.reportToWebsocket;
  const codon = entry.settings?.reportToWebsocket;
  return {
    lifecycle: codon?.lifecycle ?? own?.lifecycle ?? true,
    errors: codon?.errors ?? own?.errors ?? true,
    outputs: codon?.outputs ?? own?.outputs ?? true,
    triggers: codon?.triggers ?? own?.triggers ?? false,
  };
}
