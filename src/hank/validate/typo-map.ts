import { distance } from "fastest-levenshtein";

/**
 * Field names people write by mistake in a codon, and what they meant. The targets follow the
 * reference runtime's typo map so messages match what existing users have seen.
 */
export const CODON_TYPOS: Readonly<Record<string, string>> = {
  systemPromptFile: "appendSystemPromptFile",
  systemPromptText: "appendSystemPromptText",
  systemPrompt: "appendSystemPromptFile or appendSystemPromptText",
  prompt: "promptFile or promptText",
  prompts: "promptFile",
  promptFiles: "promptFile",
  trackedFiles: "checkpointedFiles",
  tracking: "checkpointedFiles",
  tracked: "checkpointedFiles",
  watchedFiles: "checkpointedFiles",
  fileTracking: "checkpointedFiles",
  rig: "rigSetup",
  setup: "rigSetup",
  preSetup: "rigSetup",
  archive: "archiveOnSuccess",
  cleanup: "archiveOnSuccess",
  teardown: "archiveOnSuccess",
  rigTeardown: "archiveOnSuccess",
  archiveRigs: "archiveOnSuccess",
  archiveRig: "archiveOnSuccess",
  archiving: "archiveOnSuccess",
  archives: "archiveOnSuccess",
  environment: "env",
  envVars: "env",
  outputs: "outputFiles",
  output: "outputFiles",
  continuation: "continuationMode",
  mode: "continuationMode",
  costLimit: "budget.maxDollars",
  maxBudget: "budget.maxDollars",
  maxCost: "budget.maxDollars",
  maxDollars: "budget.maxDollars",
  maxDuration: "budget.maxTimeSeconds",
  maxDurationSeconds: "budget.maxTimeSeconds",
  maxTimeSeconds: "budget.maxTimeSeconds",
  timeLimit: "budget.maxTimeSeconds",
  maxTokens: "budget.maxOutputTokens",
  maxOutputTokens: "budget.maxOutputTokens",
  tokenLimit: "budget.maxOutputTokens",
};

/** Root-level names (that are not codon fields) which belong somewhere else in the file. */
export const ROOT_TYPOS: Readonly<Record<string, string>> = {
  dataHashTimeLimit: "overrides.dataHashTimeLimit",
  sentinel: "overrides.sentinel",
  version: "meta.version",
  author: "meta.author",
  codons: "hank",
  steps: "hank",
  tools: "requirements.tools",
  systemPromptFile: "globalSystemPromptFile",
  systemPromptText: "globalSystemPromptText",
  globalSystemPrompt: "globalSystemPromptFile or globalSystemPromptText",
};

/**
 * Codon fields written at the root get the reference's per-codon message; when the author may have
 * meant a hank-wide setting instead, the hint names it.
 */
export const ROOT_ALTERNATIVES: Readonly<Record<string, string>> = {
  budget: 'for a budget on the whole hank, use "overrides.budget"',
  model: 'to run every codon on one model, set "overrides.model"',
  shimIdleTimeout: 'for a hank-wide idle timeout, use "overrides.shimIdleTimeout"',
  name: 'to name the hank, use "meta.name"',
  description: 'to describe the hank, use "meta.description"',
  env: 'to require variables from the environment, list them in "requirements.env"',
};

/** Finds a mapping ignoring case, so `TrackedFiles` is caught like `trackedFiles`. */
export function lookupTypo(map: Readonly<Record<string, string>>, key: string): string | undefined {
  if (Object.hasOwn(map, key)) return map[key];
  const lower = key.toLowerCase();
  for (const [name, target] of Object.entries(map)) if (name.toLowerCase() === lower) return target;
  return undefined;
}

/**
 * The closest candidate when it is a plausible misspelling: same letters in another case, or a small
 * edit distance (1 for words of up to 3 letters, else a third of the word, between 2 and 3).
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const limit = word.length <= 3 ? 1 : Math.min(3, Math.max(2, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === lower ? 0 : distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** What a user meant by an unknown key: the typo map first, then the closest valid field. */
export function suggestField(
  key: string,
  validFields: readonly string[],
  typos: Readonly<Record<string, string>> | undefined,
): string | undefined {
  const mapped = typos === undefined ? undefined : lookupTypo(typos, key);
  return mapped ?? closestMatch(key, validFields);
}
