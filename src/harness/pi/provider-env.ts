/**
 * Where pi's providers find their credentials (facts from `@mariozechner/pi-ai` 0.73, `env-api-keys`).
 * pi-ai's own helpers read `process.env`; the harness reads the agent's environment instead, so a
 * key set for one codon (`env`, or `HANKWEAVE_<NAME>` pass-through) reaches that codon's session.
 * Kept as data here so that the self-test can check credentials without importing the SDK (1.7 s).
 */

/** API key variables per provider, in order of preference. */
const API_KEY_ENV: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  "azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  google: ["GEMINI_API_KEY"],
  "google-vertex": ["GOOGLE_CLOUD_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  "cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
  "cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
  "github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
};

/**
 * Providers whose SDKs also accept ambient credentials (profiles, roles, application default
 * credentials). pi reads those from the runtime's own process environment, never from the agent's.
 */
const AMBIENT_CREDENTIALS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  "amazon-bedrock": [
    ["AWS_PROFILE"],
    ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
    ["AWS_BEARER_TOKEN_BEDROCK"],
    ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
    ["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
    ["AWS_WEB_IDENTITY_TOKEN_FILE"],
  ],
  // Application default credentials are found by the Google SDK itself; project and location are required.
  "google-vertex": [["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"]],
};

type Env = Readonly<Record<string, string | undefined>>;

/** The API key variables pi knows for a provider, or undefined for a provider it has none for. */
export function apiKeyEnvNames(provider: string): readonly string[] | undefined {
  return API_KEY_ENV[provider];
}

/** The provider's API key from an environment: the first of its variables that is set and not empty. */
export function apiKeyFromEnv(provider: string, env: Env): string | undefined {
  for (const name of API_KEY_ENV[provider] ?? []) {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

/** Whether the environment holds a complete set of ambient credentials for the provider. */
export function hasAmbientCredentials(provider: string, env: Env): boolean {
  const sets = AMBIENT_CREDENTIALS[provider] ?? [];
  return sets.some((names) => names.every((name) => (env[name] ?? "") !== ""));
}

/** The variables to name in a "no credentials" message, e.g. `OPENAI_API_KEY`. */
export function credentialHint(provider: string): string {
  const keys = API_KEY_ENV[provider] ?? [];
  const ambient = (AMBIENT_CREDENTIALS[provider] ?? []).map((set) => set.join(" + "));
  const all = [...keys, ...ambient];
  return all.length === 0 ? "" : all.join(" or ");
}
