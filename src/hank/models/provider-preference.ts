/**
 * Which provider a bare model id (`gpt-5`, no `provider/` prefix) resolves to when several providers
 * serve a model under that id. The model's maker wins over clouds and resellers:
 *
 * 1. model makers, in this order: anthropic, openai, google, xai, mistral, deepseek, moonshotai, zai,
 *    minimax, xiaomi (so `claude-*` is anthropic, `gpt-*` and the o-series openai, `gemini-*` google);
 * 2. every other provider (clouds, inference hosts, regional plans), alphabetically;
 * 3. aggregators that resell other providers' models, in this order: openrouter, vercel-ai-gateway,
 *    cloudflare-ai-gateway, github-copilot, opencode, opencode-go.
 *
 * Provider names are the catalog's (lowercase).
 */
export const MODEL_MAKERS: readonly string[] = [
  "anthropic",
  "openai",
  "google",
  "xai",
  "mistral",
  "deepseek",
  "moonshotai",
  "zai",
  "minimax",
  "xiaomi",
];

export const AGGREGATORS: readonly string[] = [
  "openrouter",
  "vercel-ai-gateway",
  "cloudflare-ai-gateway",
  "github-copilot",
  "opencode",
  "opencode-go",
];

/** Negative when provider `a` is preferred over `b` for a bare id; a total order over names. */
export function compareProviders(a: string, b: string): number {
  const tier = (name: string): number => {
    const maker = MODEL_MAKERS.indexOf(name);
    if (maker >= 0) return maker;
    const aggregator = AGGREGATORS.indexOf(name);
    return aggregator >= 0 ? MODEL_MAKERS.length + 1 + aggregator : MODEL_MAKERS.length;
  };
  const byTier = tier(a) - tier(b);
  if (byTier !== 0) return byTier;
  return a < b ? -1 : a > b ? 1 : 0;
}
