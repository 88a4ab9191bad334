import type * as PiAi from "@mariozechner/pi-ai";
import { sessionModelOf } from "../engine/session/session-model.ts";
import type { ResolvedModel } from "../hank/models/index.ts";
import { type EndpointLookup, endpointEnvPrefix, endpointFor } from "../harness/pi/endpoint-config.ts";
import { buildPiModel, modelFacts, piModelList } from "../harness/pi/pi-model.ts";
import { classifyPiError } from "../harness/pi/pi-outcome.ts";
import { apiKeyEnvNames, credentialHint, hasAmbientCredentials } from "../harness/pi/provider-env.ts";
import type { SentinelModel, SentinelModelRequest, SentinelModelResult } from "./sentinel-model.ts";

type Env = Readonly<Record<string, string | undefined>>;
type PiAiModule = typeof PiAi;

/** Loads pi-ai once per host, on the first real call; a missing install is a value with the hint. */
export type PiAiLoader = () => Promise<
  { readonly ok: true; readonly ai: PiAiModule } | { readonly ok: false; readonly message: string }
>;

const AI_PACKAGE = "@mariozechner/pi-ai";
const INSTALL_HINT = `Sentinel models run through ${AI_PACKAGE}; install it with: npm install ${AI_PACKAGE}@0.73`;

export function createPiAiLoader(): PiAiLoader {
  let loading: ReturnType<PiAiLoader> | undefined;
  return () => {
    loading ??= import("@mariozechner/pi-ai").then(
      (ai) => ({ ok: true as const, ai }),
      (caught: unknown) => ({ ok: false as const, message: `${INSTALL_HINT} (${String(caught)})` }),
    );
    return loading;
  };
}

/**
 * A sentinel's key for a provider: `HANKWEAVE_SENTINEL_<NAME>` first (a key for sentinels only), then
 * `<NAME>`, then `HANKWEAVE_<NAME>`, for each of the provider's key variables in pi's order.
 */
export function sentinelApiKey(provider: string, env: Env): string | undefined {
  for (const name of apiKeyEnvNames(provider) ?? []) {
    for (const candidate of [`HANKWEAVE_SENTINEL_${name}`, name, `HANKWEAVE_${name}`]) {
      const value = env[candidate];
      if (value !== undefined && value !== "") return value;
    }
  }
  return undefined;
}

/**
 * A sentinel model called through pi-ai's `complete` (one request, no tools, no agent loop). Checked at
 * load without importing pi-ai: the package resolves, and the provider has an endpoint
 * (`HANKWEAVE_PI_<PROVIDER>_BASE_URL`, as for the pi harness), a key, or ambient credentials.
 */
export function createPiSentinelModel(
  resolved: ResolvedModel,
  env: Env,
  loadAi: PiAiLoader,
  now: () => number,
): { readonly ok: true; readonly model: SentinelModel } | { readonly ok: false; readonly message: string } {
  try {
    import.meta.resolve(AI_PACKAGE);
  } catch {
    return { ok: false, message: INSTALL_HINT };
  }
  const endpoint = endpointFor(resolved.provider, undefined, env);
  if (!endpoint.ok) return endpoint;
  const key = sentinelApiKey(resolved.provider, env);
  if (
    endpoint.endpoint === undefined &&
    key === undefined &&
    !hasAmbientCredentials(resolved.provider, env)
  ) {
    const hint = credentialHint(resolved.provider) || "an endpoint with HANKWEAVE_PI_<PROVIDER>_BASE_URL";
    return {
      ok: false,
      message: `No API key for sentinel model provider '${resolved.provider}': set ${hint}`,
    };
  }
  const apiKey = endpoint.endpoint === undefined ? key : (endpoint.endpoint.apiKey ?? key ?? "none");
  const model: SentinelModel = {
    id: resolved.requested,
    call: async (request) => {
      const loaded = await loadAi();
      if (!loaded.ok) return { ok: false, message: loaded.message, retriable: false };
      return callPi(loaded.ai, { resolved, endpoint, apiKey, now }, request);
    },
  };
  return { ok: true, model };
}

interface CallSetup {
  readonly resolved: ResolvedModel;
  readonly endpoint: Extract<EndpointLookup, { ok: true }>;
  readonly apiKey: string | undefined;
  readonly now: () => number;
}

async function callPi(
  ai: PiAiModule,
  setup: CallSetup,
  request: SentinelModelRequest,
): Promise<SentinelModelResult> {
  const { resolved } = setup;
  const facts = modelFacts(sessionModelOf(resolved), resolved);
  const built = buildPiModel(
    facts,
    setup.endpoint.endpoint,
    piModelList(ai),
    endpointEnvPrefix(resolved.provider),
  );
  if (!built.ok) return { ok: false, message: built.message, retriable: false };
  const { model } = built;
  const timestamp = setup.now();
  const messages: PiAi.Message[] = request.messages.map((message) =>
    message.role === "user"
      ? { role: "user", content: message.content, timestamp }
      : {
          role: "assistant",
          content: [{ type: "text", text: message.content }],
          api: model.api,
          provider: model.provider,
          model: model.id,
          usage: NO_USAGE,
          stopReason: "stop",
          timestamp,
        },
  );
  const reply = await ai.complete(
    model,
    { ...(request.system !== undefined && { systemPrompt: request.system }), messages },
    {
      ...(setup.apiKey !== undefined && { apiKey: setup.apiKey }),
      temperature: request.temperature,
      maxTokens: Math.min(request.maxOutputTokens, model.maxTokens),
      maxRetries: request.maxRetries,
      signal: request.signal,
    },
  );
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    const reason = classifyPiError(reply.errorMessage ?? reply.stopReason);
    return {
      ok: false,
      message: reason.message,
      retriable: reply.stopReason === "aborted" || reason.retriable,
    };
  }
  const text = reply.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  return {
    ok: true,
    text,
    usage: {
      input: reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite,
      output: reply.usage.output,
    },
    costUsd: built.priced ? reply.usage.cost.total : 0,
  };
}

const NO_USAGE: PiAi.Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
