/**
 * The public shape of a resolved model: what validation reports, what the engine dispatches on and
 * what cost accounting prices with.
 */

/** Which harness runs a codon: the Claude Agent SDK, the embedded pi agent, or the offline scripted agent. */
export type HarnessKind = "claude" | "pi" | "scripted" | "command";

/** Prices in US dollars per million tokens. */
export interface ModelPricing {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** How a requested id was matched; see `resolveModel` for the rules. */
export type ModelMatchType = "exact" | "inferred-provider" | "alias" | "passthrough" | "fuzzy" | "scripted";

/** OpenAI reasoning effort selected with a `-high` / `-xhigh` model id suffix. */
export type ReasoningEffort = "high" | "xhigh";

export interface ResolvedModel {
  /** The id as written in the hank (or given with `-m`). */
  readonly requested: string;
  /** The canonical model id within its provider, e.g. `claude-haiku-4-5`; effort variants keep their suffix. */
  readonly id: string;
  readonly provider: string;
  readonly harness: HarnessKind;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** Null when the model is not in the catalog (pi passthrough), so its cost cannot be computed. */
  readonly pricing: ModelPricing | null;
  readonly matchType: ModelMatchType;
  /** For effort variants (`gpt-5-xhigh`): the catalog id the provider is called with (`gpt-5`). */
  readonly baseId?: string;
  /** For effort variants: the reasoning effort to request. */
  readonly reasoningEffort?: ReasoningEffort;
}

export type ModelResolution =
  | { readonly ok: true; readonly model: ResolvedModel }
  | { readonly ok: false; readonly message: string; readonly suggestions: string[] };
