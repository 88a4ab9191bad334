import { bundledCatalog, type ModelCatalog } from "./catalog.ts";
import { type CatalogMatch, matchCatalogModel, matchProviderModel } from "./catalog-match.ts";
import { effortPricing } from "./effort-variant.ts";
import { harnessForProvider } from "./harness-for-provider.ts";
import type { HarnessKind, ModelMatchType, ModelResolution, ResolvedModel } from "./model-types.ts";
import { suggestModels } from "./suggest-models.ts";

/** Limits assumed for models the catalog does not know (pi passthrough) and for the scripted agent. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 64_000;

const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function fromMatch(
  requested: string,
  match: CatalogMatch,
  harness: HarnessKind,
  matchType: ModelMatchType,
): ResolvedModel {
  const { model, effort } = match;
  const resolved = {
    requested,
    id: model.id,
    provider: model.provider,
    harness,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    pricing: model.cost,
    matchType,
  } satisfies ResolvedModel;
  if (effort === undefined) return resolved;
  const id = `${model.id}-${effort}`;
  return {
    ...resolved,
    id,
    baseId: model.id,
    reasoningEffort: effort,
    pricing: effortPricing(model.cost, effort),
  };
}

/** `scripted` and `scripted/<name>`: the offline scripted agent, free, with declared limits. */
function resolveScripted(requested: string): ModelResolution {
  const name = requested.slice("scripted/".length);
  if (requested.length > "scripted".length && name === "") {
    return {
      ok: false,
      message: `Model '${requested}' must be 'scripted' or 'scripted/<name>'`,
      suggestions: ["scripted"],
    };
  }
  const model: ResolvedModel = {
    requested,
    id: name === "" ? "scripted" : name,
    provider: "scripted",
    harness: "scripted",
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    pricing: FREE,
    matchType: "scripted",
  };
  return { ok: true, model };
}

/**
 * `command/<name>[/<model>]`: a command-line agent configured in hankweave.commands.json. The command
 * itself is looked up when the run starts (the configuration lives beside the hank, not in the
 * catalog); its pricing is unknown by design: such agents report cost themselves or not at all.
 */
function resolveCommand(requested: string): ModelResolution {
  const rest = requested.slice("command/".length);
  const name = rest.split("/")[0] ?? "";
  if (!/^[a-z0-9._-]+$/.test(name)) {
    return {
      ok: false,
      message: `Model '${requested}' must be 'command/<name>' or 'command/<name>/<model>', with a lowercase name`,
      suggestions: [],
    };
  }
  const model: ResolvedModel = {
    requested,
    id: rest,
    provider: "command",
    harness: "command",
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    pricing: null,
    matchType: "passthrough",
  };
  return { ok: true, model };
}

/** `pi/<provider>/<model>`: run on pi whatever the provider; catalog data when the catalog knows the model. */
function resolvePassthrough(requested: string, catalog: ModelCatalog): ModelResolution {
  const rest = requested.slice("pi/".length);
  const slash = rest.indexOf("/");
  const provider = slash > 0 ? rest.slice(0, slash).toLowerCase() : "";
  const id = slash > 0 ? rest.slice(slash + 1) : "";
  if (provider === "" || id === "") {
    const message = `Model '${requested}' must name a provider and a model: pi/<provider>/<model>`;
    return { ok: false, message, suggestions: [] };
  }
  const match = matchProviderModel(catalog, provider, id);
  if (match !== undefined) return { ok: true, model: fromMatch(requested, match, "pi", "passthrough") };
  const model: ResolvedModel = {
    requested,
    id,
    provider,
    harness: "pi",
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    pricing: null,
    matchType: "passthrough",
  };
  return { ok: true, model };
}

function unknownModel(requested: string, catalog: ModelCatalog): ModelResolution {
  const suggestions = suggestModels(catalog, requested);
  const slash = requested.indexOf("/");
  const provider = slash > 0 ? requested.slice(0, slash) : "";
  if (provider !== "" && !catalog.hasProvider(provider)) {
    const message =
      `Model '${requested}' uses provider '${provider}' which is not currently supported. ` +
      "Supported providers: anthropic, pi (any provider in the catalog), scripted";
    return { ok: false, message, suggestions };
  }
  return { ok: false, message: `Model '${requested}' not found in registry`, suggestions };
}

/**
 * Resolves a model id as written in a hank to the model, provider and harness that will run it.
 * Case-insensitive; the rules, in order:
 *
 * - `scripted`, `scripted/<name>`: the scripted agent (matchType `scripted`, free, 200k/64k limits).
 * - `command/<name>[/<model>]`: a command-line agent (harness `command`, pricing unknown).
 * - `pi/<provider>/<model>`: explicit pi passthrough (matchType `passthrough`, harness `pi`); catalog
 *   data when the provider serves the model, else 200k context / 64k output and unknown (null) pricing.
 * - `haiku`, `sonnet`, `opus`, or `anthropic/<alias>`: the newest Anthropic model of that family
 *   (matchType `alias`; rule in `claude-aliases.ts`).
 * - `<provider>/<model>` served by that catalog provider (matchType `exact`).
 * - a bare catalog id, including ids that contain a slash (matchType `inferred-provider`); when several
 *   providers serve it the model's maker wins over resellers (`provider-preference.ts`). So
 *   `openai/gpt-oss-120b`, which openai does not serve, is the id groq and openrouter serve it under.
 * - either of the last two with a `-high` / `-xhigh` suffix on an OpenAI reasoning model
 *   (`effort-variant.ts`): id keeps the suffix, `baseId` and `reasoningEffort` say what to call.
 *
 * The harness follows the provider: anthropic → claude, scripted → scripted, anything else → pi.
 * Unknown ids fail with up to three suggestions. Reads the bundled catalog unless one is passed.
 */
export function resolveModel(requested: string, catalog?: ModelCatalog): ModelResolution {
  const lower = requested.toLowerCase();
  if (lower === "scripted" || lower.startsWith("scripted/")) return resolveScripted(requested);
  if (lower.startsWith("command/")) return resolveCommand(requested);
  const models = catalog ?? bundledCatalog();
  if (lower.startsWith("pi/")) return resolvePassthrough(requested, models);
  const match = matchCatalogModel(models, requested);
  if (match === undefined) return unknownModel(requested, models);
  return {
    ok: true,
    model: fromMatch(requested, match, harnessForProvider(match.model.provider), match.matchType),
  };
}
