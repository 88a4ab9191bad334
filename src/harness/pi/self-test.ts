import type { SessionModel } from "../harness.ts";
import { endpointEnvPrefix, endpointFor } from "./endpoint-config.ts";
import type { PiHarnessOptions } from "./pi-options.ts";
import { checkPiAvailable, PI_SUPPORTED_RANGE } from "./pi-sdk.ts";
import { apiKeyEnvNames, apiKeyFromEnv, credentialHint, hasAmbientCredentials } from "./provider-env.ts";

export type PiSelfTest =
  | {
      readonly ok: true;
      readonly version: string;
      /** Where the credentials come from: a variable name, an endpoint, or ambient credentials. */
      readonly credentials: string;
      /** Set when the installed pi is not the tested line. */
      readonly warning?: string;
    }
  | { readonly ok: false; readonly message: string };

type Env = Readonly<Record<string, string | undefined>>;

function credentialSource(model: SessionModel, env: Env, options: Pick<PiHarnessOptions, "providers">) {
  const { provider } = model;
  const endpoint = endpointFor(provider, options.providers, env);
  if (!endpoint.ok) return { ok: false as const, message: endpoint.message };
  if (endpoint.endpoint !== undefined) return { ok: true as const, credentials: endpoint.endpoint.source };
  const key = apiKeyFromEnv(provider, env);
  if (key !== undefined) {
    const name = (apiKeyEnvNames(provider) ?? []).find((n) => env[n] === key) ?? "API key";
    return { ok: true as const, credentials: name };
  }
  if (hasAmbientCredentials(provider, env)) return { ok: true as const, credentials: "ambient credentials" };
  const hint = credentialHint(provider);
  const prefix = endpointEnvPrefix(provider);
  const message =
    hint === ""
      ? `Model ${model.requested}: pi has no API key variable for provider '${provider}'; set ${prefix}BASE_URL to point it at an endpoint`
      : `Model ${model.requested}: no credentials for pi provider '${provider}': set ${hint}`;
  return { ok: false as const, message };
}

/**
 * The startup check of a model that runs on pi, without importing the SDK: the packages resolve, and
 * the agent environment holds credentials for the model's provider (an API key variable, ambient cloud
 * credentials, or a configured endpoint). Whether pi lists the model is checked when the session starts.
 */
export function selfTestPi(
  model: SessionModel,
  env: Env,
  options: Pick<PiHarnessOptions, "providers"> = {},
): PiSelfTest {
  const available = checkPiAvailable();
  if (!available.ok) return available;
  const source = credentialSource(model, env, options);
  if (!source.ok) return source;
  const base = { ok: true as const, version: available.version, credentials: source.credentials };
  return available.supported
    ? base
    : {
        ...base,
        warning: `pi ${available.version} is installed; hankweave is tested with ${PI_SUPPORTED_RANGE}`,
      };
}
