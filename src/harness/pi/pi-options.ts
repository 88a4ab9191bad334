import type { ModelPricing, ResolvedModel } from "../../hank/models/index.ts";
import type { Clock } from "../../util/clock.ts";

/** The wire APIs a configured endpoint can speak: OpenAI Chat Completions or Anthropic Messages. */
export const PI_ENDPOINT_APIS = ["openai-completions", "anthropic-messages"] as const;
export type PiEndpointApi = (typeof PI_ENDPOINT_APIS)[number];

/** Limits and prices of one model served by a configured endpoint; unset fields use the catalog's. */
export interface PiEndpointModel {
  readonly id: string;
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  /** Whether the model takes a reasoning (thinking) level. Default false for unknown models. */
  readonly reasoning?: boolean;
  /** USD per million tokens; set it (zeros for a free local model) to get costs reported. */
  readonly cost?: ModelPricing;
}

/**
 * A provider endpoint: a local model server (llama.cpp, vLLM, Ollama, LM Studio), a proxy, or a
 * provider pi does not know. Keys here override pi's built-in provider of the same name.
 */
export interface PiProviderConfig {
  /** `http://127.0.0.1:8080/v1` for OpenAI-compatible servers; no `/v1` for Anthropic Messages. */
  readonly baseUrl: string;
  /** Default: the built-in model's API when pi knows the model, else `openai-completions`. */
  readonly api?: PiEndpointApi;
  /** The key itself. Prefer `apiKeyEnv`, so that no secret sits in configuration. */
  readonly apiKey?: string;
  /** Name of the agent environment variable that holds the key. */
  readonly apiKeyEnv?: string;
  readonly models?: readonly PiEndpointModel[];
}

/** Time as the pi harness sees it (tool execution times); injected so tests control it. */
/** The pi harness only reads the time. */
export type PiClock = Pick<Clock, "now">;

export interface PiHarnessOptions {
  /**
   * Where pi's session files live, one JSONL per session (`<time>_<sessionId>.jsonl`); resume looks the
   * session id up here. The runtime passes `<exec>/.hankweave/pi-sessions`.
   */
  readonly sessionDir: string;
  /** Endpoints by provider name (the `<provider>` of `pi/<provider>/<model>`). */
  readonly providers?: Readonly<Record<string, PiProviderConfig>>;
  /** Default: the system clock. */
  readonly clock?: PiClock;
  /**
   * Catalog facts for a requested model id (pricing, effort variants). Default: the bundled catalog.
   * Return undefined for a model the catalog does not know.
   */
  readonly resolveModel?: (requested: string) => ResolvedModel | undefined;
  /**
   * Asked before each tool that can change the workspace (write, edit, bash), which pi runs in this
   * process; false refuses it (see `HarnessContext.mayWrite`). Default: always true.
   */
  readonly mayWrite?: () => boolean;
}
