import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import { type ModelResolution, type ResolvedModel, resolveModel } from "../models/index.ts";
import type { Codon } from "../schema/index.ts";
import type { CodonSlot } from "./hank-view.ts";

/**
 * Every model id the hank names is resolved against the catalog. When a model override applies
 * (the CLI `-m`, else `overrides.model`), every codon carries the override's id, so an invalid
 * override is reported once, where it was written, instead of once per codon.
 */
export type ModelOverrideSource =
  | { readonly from: "cli"; readonly model: string }
  | { readonly from: "overrides"; readonly model: string }
  | { readonly from: "none" };

export interface ModelStage {
  readonly issues: ValidationIssue[];
  /** By requested id. */
  readonly models: Map<string, ResolvedModel>;
  readonly modelOf: (codon: Codon) => ResolvedModel | undefined;
}

export function checkModels(
  slots: readonly CodonSlot[],
  overrides: { readonly hankModel: string | undefined; readonly source: ModelOverrideSource },
): ModelStage {
  const cache = new Map<string, ModelResolution>();
  const resolve = (id: string): ModelResolution => {
    const known = cache.get(id);
    if (known !== undefined) return known;
    const fresh = safeResolve(id);
    cache.set(id, fresh);
    return fresh;
  };
  const issues: ValidationIssue[] = [];
  const { source, hankModel } = overrides;
  if (source.from === "cli")
    issues.push(...modelIssue(source.model, resolve(source.model), [], "the -m/--model option"));
  if (hankModel !== undefined)
    issues.push(...modelIssue(hankModel, resolve(hankModel), ["overrides", "model"], '"overrides.model"'));
  if (source.from === "none") {
    for (const { rawModel, path } of slots) {
      if (rawModel === undefined || rawModel === "") continue;
      issues.push(...modelIssue(rawModel, resolve(rawModel), [...path, "model"], undefined));
    }
  }
  const models = new Map<string, ResolvedModel>();
  for (const [id, resolution] of cache) if (resolution.ok) models.set(id, resolution.model);
  return { issues, models, modelOf: (codon) => models.get(codon.model) };
}

/** The catalog is data; a bug in reading it must not take validation down with it. */
function safeResolve(id: string): ModelResolution {
  try {
    return resolveModel(id);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return { ok: false, message: `Model '${id}' could not be resolved: ${reason}`, suggestions: [] };
  }
}

function modelIssue(
  requested: string,
  resolution: ModelResolution,
  path: JsonPath,
  source: string | undefined,
): ValidationIssue[] {
  if (resolution.ok) return [];
  const suggestions = resolution.suggestions.map((s) => `'${s}'`);
  const didYouMean = suggestions.length === 0 ? "" : ` Did you mean ${suggestions.join(", ")}?`;
  const where = source === undefined ? "" : ` (from ${source})`;
  const hint =
    suggestions.length === 0
      ? "Use a model alias (haiku, sonnet, opus), provider/model, pi/<provider>/<model>, or scripted."
      : `Use ${suggestions.join(" or ")}, or another id from the catalog.`;
  return [
    error(
      "invalid-model",
      path,
      `Invalid model '${requested}'${where}: ${resolution.message}.${didYouMean}`,
      hint,
    ),
  ];
}
