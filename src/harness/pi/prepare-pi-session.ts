import type { Api, Model } from "@mariozechner/pi-ai";
import type { SessionManager } from "@mariozechner/pi-coding-agent";
import type { ResolvedModel } from "../../hank/models/index.ts";
import type { SessionRequest } from "../harness.ts";
import { endpointEnvPrefix, endpointFor } from "./endpoint-config.ts";
import { buildPiModel, modelFacts, piModelList } from "./pi-model.ts";
import type { PiHarnessOptions } from "./pi-options.ts";
import type { PiSdk } from "./pi-sdk.ts";
import { apiKeyEnvNames, apiKeyFromEnv, credentialHint, hasAmbientCredentials } from "./provider-env.ts";
import { findSessionFile } from "./session-files.ts";

/** What a pi session needs before it can be created; every refusal here is permanent. */
export interface PreparedPiSession {
  readonly model: Model<Api>;
  readonly priced: boolean;
  /** The key to hand pi for the model's provider; undefined leaves pi to its ambient credentials. */
  readonly apiKey: string | undefined;
  readonly thinkingLevel: "medium" | "high" | "xhigh";
  readonly sessionManager: SessionManager;
}

export type Preparation =
  | { readonly ok: true; readonly prepared: PreparedPiSession }
  | { readonly ok: false; readonly message: string };

/** A configured endpoint without a key still needs one for the client; local servers ignore it. */
const KEYLESS_ENDPOINT = "none";

type KeyLookup =
  | { readonly ok: true; readonly apiKey: string | undefined }
  | { readonly ok: false; readonly message: string };

function findApiKey(
  provider: string,
  request: SessionRequest,
  endpointKey: string | undefined,
  hasEndpoint: boolean,
): KeyLookup {
  if (hasEndpoint)
    return { ok: true, apiKey: endpointKey ?? apiKeyFromEnv(provider, request.env) ?? KEYLESS_ENDPOINT };
  const key = apiKeyFromEnv(provider, request.env);
  if (key !== undefined) return { ok: true, apiKey: key };
  if (hasAmbientCredentials(provider, request.env)) return { ok: true, apiKey: undefined };
  const hint = credentialHint(provider);
  if (hint === "" && apiKeyEnvNames(provider) === undefined) {
    return {
      ok: false,
      message: `pi provider '${provider}' needs an OAuth login, which hankweave does not support; configure an endpoint with an API key instead`,
    };
  }
  return { ok: false, message: `No API key for pi provider '${provider}': set ${hint} in the environment` };
}

function openSessionManager(
  sdk: PiSdk,
  request: SessionRequest,
  sessionDir: string,
): { ok: true; manager: SessionManager } | { ok: false; message: string } {
  const { SessionManager: Sessions } = sdk.agent;
  const resumeId = request.resumeSessionId;
  try {
    if (resumeId === undefined) return { ok: true, manager: Sessions.create(request.cwd, sessionDir) };
    const file = findSessionFile(sessionDir, resumeId);
    if (file === undefined)
      return { ok: false, message: `pi session ${resumeId} not found in ${sessionDir}` };
    return { ok: true, manager: Sessions.open(file, sessionDir, request.cwd) };
  } catch (error) {
    return {
      ok: false,
      message: `pi session store ${sessionDir}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Decides the model object, the credentials and the session file of a session: the model from the
 * catalog facts and pi's own list, redirected to a configured endpoint; the key from the agent
 * environment; a new session file, or the one of the session to resume.
 */
export function preparePiSession(
  request: SessionRequest,
  options: PiHarnessOptions,
  resolved: ResolvedModel | undefined,
  sdk: PiSdk,
): Preparation {
  const facts = modelFacts(request.model, resolved);
  const endpoint = endpointFor(facts.provider, options.providers, request.env);
  if (!endpoint.ok) return endpoint;
  const built = buildPiModel(
    facts,
    endpoint.endpoint,
    piModelList(sdk.ai),
    endpointEnvPrefix(facts.provider),
  );
  if (!built.ok) return built;
  const key = findApiKey(facts.provider, request, endpoint.endpoint?.apiKey, endpoint.endpoint !== undefined);
  if (!key.ok) return key;
  const sessions = openSessionManager(sdk, request, options.sessionDir);
  if (!sessions.ok) return sessions;
  const prepared: PreparedPiSession = {
    model: built.model,
    priced: built.priced,
    apiKey: key.apiKey,
    // pi clamps the level to what the model supports (`off` for models without reasoning).
    thinkingLevel: facts.reasoningEffort ?? "medium",
    sessionManager: sessions.manager,
  };
  return { ok: true, prepared };
}
