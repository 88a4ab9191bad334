import type { CatalogModel } from "./catalog-data.ts";
import type { ModelPricing, ReasoningEffort } from "./model-types.ts";

/**
 * OpenAI reasoning models can be named with a reasoning-effort suffix: `gpt-5-high` runs `gpt-5` at
 * high effort for the base price, `gpt-5-xhigh` at extra-high effort priced at twice the base (the
 * reference runtime's convention, which keeps budget estimates conservative).
 * "OpenAI reasoning models" are the `reasoning` models of the providers that serve OpenAI's own models.
 */
export const OPENAI_PROVIDERS: readonly string[] = ["openai", "azure-openai-responses", "openai-codex"];

const PRICE_FACTOR: Readonly<Record<ReasoningEffort, number>> = { high: 1, xhigh: 2 };

export interface EffortSuffix {
  readonly baseId: string;
  readonly effort: ReasoningEffort;
}

/** Splits `gpt-5-xhigh` into `gpt-5` and `xhigh`; undefined when the id has no effort suffix. */
export function splitEffortSuffix(id: string): EffortSuffix | undefined {
  const match = /^(.+)-(x?high)$/i.exec(id);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { baseId: match[1], effort: match[2].toLowerCase() === "xhigh" ? "xhigh" : "high" };
}

export function acceptsEffortSuffix(model: CatalogModel): boolean {
  return model.reasoning && OPENAI_PROVIDERS.includes(model.provider);
}

export function effortPricing(base: ModelPricing | null, effort: ReasoningEffort): ModelPricing | null {
  if (base === null) return null;
  const factor = PRICE_FACTOR[effort];
  return {
    input: base.input * factor,
    output: base.output * factor,
    cacheRead: base.cacheRead * factor,
    cacheWrite: base.cacheWrite * factor,
  };
}
