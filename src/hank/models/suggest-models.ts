import { distance } from "fastest-levenshtein";
import type { ModelCatalog } from "./catalog.ts";
import { CLAUDE_ALIASES } from "./claude-aliases.ts";
import { compareProviders } from "./provider-preference.ts";

/** A spelling a user could write, and the model (`provider/id`) it resolves to. */
interface Candidate {
  readonly text: string;
  readonly target: string;
  readonly provider: string;
}

interface Scored extends Candidate {
  /** 0 when the candidate contains the request, 1 when it is only within edit distance. */
  readonly tier: number;
  readonly distance: number;
}

const MAX_SUGGESTIONS = 3;
/** Requests shorter than this are not matched as substrings (`o1` is inside too many ids). */
const MIN_SUBSTRING_LENGTH = 3;

function candidates(catalog: ModelCatalog): Candidate[] {
  const out: Candidate[] = [{ text: "scripted", target: "scripted/scripted", provider: "scripted" }];
  for (const alias of CLAUDE_ALIASES) {
    const model = catalog.aliasTarget(alias);
    if (model !== undefined)
      out.push({ text: alias, target: `${model.provider}/${model.id}`, provider: model.provider });
  }
  for (const model of catalog.bareIds.values()) {
    out.push({ text: model.id, target: `${model.provider}/${model.id}`, provider: model.provider });
  }
  for (const model of catalog.models) {
    const key = `${model.provider}/${model.id}`;
    out.push({ text: key, target: key, provider: model.provider });
  }
  return out;
}

function score(candidate: Candidate, query: string): Scored | undefined {
  const text = candidate.text.toLowerCase();
  const contains = query.length >= MIN_SUBSTRING_LENGTH && text.includes(query);
  const edits = distance(query, text);
  const allowed = Math.max(2, Math.floor(query.length / 4));
  if (!contains && edits > allowed) return undefined;
  return { ...candidate, tier: contains ? 0 : 1, distance: edits };
}

function compareScored(a: Scored, b: Scored): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.distance !== b.distance) return a.distance - b.distance;
  const byProvider = compareProviders(a.provider, b.provider);
  if (byProvider !== 0) return byProvider;
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

/**
 * Up to three ids close to an unknown one, best first: spellings that contain the request, then
 * spellings within a small edit distance (Levenshtein, at most max(2, length / 4)); ties go to the
 * preferred provider. Candidates are the aliases, `scripted`, bare ids and `provider/id` keys; each
 * model is suggested once, under its best spelling.
 */
export function suggestModels(catalog: ModelCatalog, requested: string): string[] {
  const query = requested.toLowerCase();
  const scored: Scored[] = [];
  for (const candidate of candidates(catalog)) {
    const result = score(candidate, query);
    if (result !== undefined) scored.push(result);
  }
  scored.sort(compareScored);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of scored) {
    if (out.length === MAX_SUGGESTIONS) break;
    if (seen.has(entry.target)) continue;
    seen.add(entry.target);
    out.push(entry.text);
  }
  return out;
}
