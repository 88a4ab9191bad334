import type { Api, KnownProvider, Model } from "@mariozechner/pi-ai";
import type { ModelPricing, ReasoningEffort, ResolvedModel } from "../../hank/models/index.ts";
import type { SessionModel } from "../harness.ts";
import type { PiEndpoint } from "./endpoint-config.ts";
import type { PiSdk } from "./pi-sdk.ts";

/** What the harness knows about the model before it asks pi: the session's model plus catalog facts. */
export interface ModelFacts {
  readonly provider: string;
  /** The id the provider is called with: the base id of an effort variant (`gpt-5` for `gpt-5-xhigh`). */
  readonly callId: string;
  readonly contextWindow: number | undefined;
  readonly maxOutputTokens: number | undefined;
  /** Catalog prices; null when the catalog does not price the model. */
  readonly pricing: ModelPricing | null;
  readonly reasoningEffort?: ReasoningEffort;
}

/** Joins the session's model with its catalog resolution, when that resolution is of the same model. */
export function modelFacts(model: SessionModel, resolved: ResolvedModel | undefined): ModelFacts {
  const same = resolved !== undefined && resolved.provider === model.provider && resolved.id === model.id;
  const base = {
    provider: model.provider,
    callId: (same ? resolved.baseId : undefined) ?? model.id,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    pricing: same ? resolved.pricing : null,
  };
  return same && resolved.reasoningEffort !== undefined
    ? { ...base, reasoningEffort: resolved.reasoningEffort }
    : base;
}

export type BuiltModel =
  | {
      readonly ok: true;
      readonly model: Model<Api>;
      /** Whether the model's prices are known, so that pi's cost figures are real. */
      readonly priced: boolean;
    }
  | { readonly ok: false; readonly message: string };

const FREE: ModelPricing = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** The models pi lists, by provider (`getModels` of pi-ai); a narrow view so tests can pass their own. */
export interface PiModelList {
  models(provider: string): readonly Model<Api>[];
}

/** The model list of the installed pi-ai. */
export function piModelList(ai: PiSdk["ai"]): PiModelList {
  const known: readonly string[] = ai.getProviders();
  const isKnown = (provider: string): provider is KnownProvider => known.includes(provider);
  return { models: (provider) => (isKnown(provider) ? ai.getModels(provider) : []) };
}

/** A model object for an id pi does not list: limits from the facts, wire details from the template. */
function genericModel(facts: ModelFacts, wire: Pick<Model<Api>, "api" | "baseUrl" | "headers">): Model<Api> {
  const model: Model<Api> = {
    id: facts.callId,
    name: facts.callId,
    api: wire.api,
    provider: facts.provider,
    baseUrl: wire.baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { ...FREE },
    contextWindow: facts.contextWindow ?? 200_000,
    maxTokens: facts.maxOutputTokens ?? 64_000,
  };
  return wire.headers === undefined ? model : { ...model, headers: wire.headers };
}

function withEndpoint(model: Model<Api>, endpoint: PiEndpoint): Model<Api> {
  const api = endpoint.api ?? model.api;
  const { compat: _dropped, ...rest } = model;
  // Compatibility overrides belong to the API they were written for; a changed API auto-detects anew.
  const base = api === model.api ? model : rest;
  const configured = endpoint.models.find((m) => m.id === model.id);
  return {
    ...base,
    api,
    baseUrl: endpoint.baseUrl,
    ...(configured?.contextWindow !== undefined && { contextWindow: configured.contextWindow }),
    ...(configured?.maxTokens !== undefined && { maxTokens: configured.maxTokens }),
    ...(configured?.reasoning !== undefined && { reasoning: configured.reasoning }),
  };
}

function unknownProvider(facts: ModelFacts, prefix: string): BuiltModel {
  return {
    ok: false,
    message:
      `pi does not know provider '${facts.provider}' (model ${facts.callId}). Point it at an endpoint: ` +
      `set ${prefix}BASE_URL (and ${prefix}API=openai-completions|anthropic-messages, ` +
      `${prefix}API_KEY if the server needs one), or configure providers.${facts.provider} in the harness options.`,
  };
}

/**
 * The pi model object for a session: pi-ai's own entry when pi knows the model, a generic one built
 * from the provider's other models for a passthrough id, redirected to a configured endpoint when there
 * is one. Prices: a configured model's, else the catalog's, else pi's own for a model it lists.
 */
export function buildPiModel(
  facts: ModelFacts,
  endpoint: PiEndpoint | undefined,
  list: PiModelList,
  envPrefix: string,
): BuiltModel {
  const listed = list.models(facts.provider);
  const known = listed.find((m) => m.id === facts.callId);
  const template = known ?? listed[0];
  let model: Model<Api>;
  if (template !== undefined) model = known ?? genericModel(facts, template);
  else if (endpoint !== undefined) {
    model = genericModel(facts, { api: endpoint.api ?? "openai-completions", baseUrl: endpoint.baseUrl });
  } else return unknownProvider(facts, envPrefix);
  if (endpoint !== undefined) model = withEndpoint(model, endpoint);
  const configuredCost = endpoint?.models.find((m) => m.id === facts.callId)?.cost;
  const cost = configuredCost ?? facts.pricing ?? (known === undefined ? undefined : known.cost);
  const priced = cost !== undefined;
  return { ok: true, model: { ...model, cost: { ...(cost ?? FREE) } }, priced };
}
