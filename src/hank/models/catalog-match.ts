import type { ModelCatalog } from "./catalog.ts";
import type { CatalogModel } from "./catalog-data.ts";
import { isClaudeAlias } from "./claude-aliases.ts";
import { acceptsEffortSuffix, splitEffortSuffix } from "./effort-variant.ts";
import type { ReasoningEffort } from "./model-types.ts";

/** A catalog model a requested id names, and how it was found. */
export interface CatalogMatch {
  readonly model: CatalogModel;
  readonly matchType: "exact" | "inferred-provider" | "alias";
  readonly effort?: ReasoningEffort;
}

/** `haiku`, `sonnet`, `opus`, also spelled `anthropic/<alias>` (lowercase input). */
function matchAlias(catalog: ModelCatalog, lower: string): CatalogMatch | undefined {
  const name = lower.startsWith("anthropic/") ? lower.slice("anthropic/".length) : lower;
  if (!isClaudeAlias(name)) return undefined;
  const model = catalog.aliasTarget(name);
  return model === undefined ? undefined : { model, matchType: "alias" };
}

/**
 * `provider/model` when the first segment is a catalog provider and it serves that id; otherwise the
 * whole text as a bare id (ids may contain slashes, e.g. openrouter's `qwen/qwen3-32b`).
 */
function matchId(catalog: ModelCatalog, text: string): CatalogMatch | undefined {
  const slash = text.indexOf("/");
  if (slash > 0) {
    const model = catalog.find(text.slice(0, slash), text.slice(slash + 1));
    if (model !== undefined) return { model, matchType: "exact" };
  }
  const model = catalog.findBareId(text);
  return model === undefined ? undefined : { model, matchType: "inferred-provider" };
}

/** An OpenAI reasoning model named with a `-high` / `-xhigh` effort suffix. */
function matchEffortVariant(catalog: ModelCatalog, text: string): CatalogMatch | undefined {
  const suffix = splitEffortSuffix(text);
  if (suffix === undefined) return undefined;
  const base = matchId(catalog, suffix.baseId);
  if (base === undefined || !acceptsEffortSuffix(base.model)) return undefined;
  return { ...base, effort: suffix.effort };
}

/**
 * Looks a requested id up in the catalog, in this order: alias, `provider/model`, bare id, effort
 * variant of either. Case-insensitive. Undefined when nothing matches.
 */
export function matchCatalogModel(catalog: ModelCatalog, requested: string): CatalogMatch | undefined {
  return (
    matchAlias(catalog, requested.toLowerCase()) ??
    matchId(catalog, requested) ??
    matchEffortVariant(catalog, requested)
  );
}

/** The same lookup restricted to one provider (for `pi/<provider>/<model>`). */
export function matchProviderModel(
  catalog: ModelCatalog,
  provider: string,
  id: string,
): CatalogMatch | undefined {
  const exact = catalog.find(provider, id);
  if (exact !== undefined) return { model: exact, matchType: "exact" };
  const suffix = splitEffortSuffix(id);
  if (suffix === undefined) return undefined;
  const base = catalog.find(provider, suffix.baseId);
  if (base === undefined || !acceptsEffortSuffix(base)) return undefined;
  return { model: base, matchType: "exact", effort: suffix.effort };
}
