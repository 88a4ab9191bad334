import {
  PI_ENDPOINT_APIS,
  type PiEndpointApi,
  type PiEndpointModel,
  type PiProviderConfig,
} from "./pi-options.ts";

/**
 * The endpoint a provider's requests go to when the user configured one: from the harness options, or
 * from the agent environment (`HANKWEAVE_PI_<PROVIDER>_BASE_URL`, `_API`, `_API_KEY`), so that a hank
 * can run against a local model server without any configuration file. Options win over environment.
 */
export interface PiEndpoint {
  readonly baseUrl: string;
  readonly api: PiEndpointApi | undefined;
  /** The key, or undefined when none was configured (local servers usually need none). */
  readonly apiKey: string | undefined;
  readonly models: readonly PiEndpointModel[];
  /** Where the configuration came from, for messages. */
  readonly source: string;
}

export type EndpointLookup =
  | { readonly ok: true; readonly endpoint: PiEndpoint | undefined }
  | { readonly ok: false; readonly message: string };

type Env = Readonly<Record<string, string | undefined>>;

/** `HANKWEAVE_PI_<PROVIDER>_`: the provider name upper-cased, every other character an underscore. */
export function endpointEnvPrefix(provider: string): string {
  return `HANKWEAVE_PI_${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;
}

function isEndpointApi(value: string): value is PiEndpointApi {
  return (PI_ENDPOINT_APIS as readonly string[]).includes(value);
}

function checkApi(api: string | undefined, where: string): EndpointLookup | undefined {
  if (api === undefined || isEndpointApi(api)) return undefined;
  return { ok: false, message: `${where}: api '${api}' is not one of ${PI_ENDPOINT_APIS.join(", ")}` };
}

function fromOptions(provider: string, config: PiProviderConfig, env: Env): EndpointLookup {
  const source = `pi provider '${provider}' (harness options)`;
  const invalid = checkApi(config.api, source);
  if (invalid) return invalid;
  const fromEnv = config.apiKeyEnv === undefined ? undefined : env[config.apiKeyEnv];
  const apiKey = config.apiKey ?? (fromEnv === "" ? undefined : fromEnv);
  const endpoint = { baseUrl: config.baseUrl, api: config.api, apiKey, models: config.models ?? [], source };
  return { ok: true, endpoint };
}

function fromEnv(provider: string, env: Env): EndpointLookup {
  const prefix = endpointEnvPrefix(provider);
  const baseUrl = env[`${prefix}BASE_URL`];
  if (baseUrl === undefined || baseUrl === "") return { ok: true, endpoint: undefined };
  const api = env[`${prefix}API`] || undefined;
  const invalid = checkApi(api, `${prefix}API`);
  if (invalid) return invalid;
  const apiKey = env[`${prefix}API_KEY`] || undefined;
  const endpoint = {
    baseUrl,
    api: api !== undefined && isEndpointApi(api) ? api : undefined,
    apiKey,
    models: [],
    source: `${prefix}BASE_URL`,
  };
  return { ok: true, endpoint };
}

/** The configured endpoint of a provider, undefined when none is configured. */
export function endpointFor(
  provider: string,
  providers: Readonly<Record<string, PiProviderConfig>> | undefined,
  env: Env,
): EndpointLookup {
  const config = providers?.[provider];
  return config === undefined ? fromEnv(provider, env) : fromOptions(provider, config, env);
}
