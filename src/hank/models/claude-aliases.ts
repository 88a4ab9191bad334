import type { CatalogModel } from "./catalog-data.ts";

/**
 * The `haiku`, `sonnet` and `opus` aliases. Each names the most recent Anthropic model of its family
 * in the catalog, chosen by this rule:
 *
 * 1. consider `anthropic` models whose id reads `claude-<family>-<major>[-<minor>][-<yyyymmdd>]`
 *    (current naming) or `claude-<major>[-<minor>]-<family>[-<yyyymmdd>|-latest]` (older naming);
 * 2. the highest version (major, then minor; a missing minor is 0) wins;
 * 3. among ids of the same version, the undated canonical id (`claude-haiku-4-5`) wins over
 *    `-latest`, which wins over dated snapshots (`claude-haiku-4-5-20251001`; newest date first).
 */
export const CLAUDE_ALIASES = ["haiku", "sonnet", "opus"] as const;
export type ClaudeAlias = (typeof CLAUDE_ALIASES)[number];

export function isClaudeAlias(name: string): name is ClaudeAlias {
  return (CLAUDE_ALIASES as readonly string[]).includes(name);
}

interface ClaudeVersion {
  readonly family: string;
  readonly major: number;
  readonly minor: number;
  /** 0 for an undated id, 1 for `-latest`, 2 for a dated snapshot. */
  readonly stampRank: number;
  /** `yyyymmdd` of a dated snapshot, else "". */
  readonly date: string;
}

const CURRENT_NAMING = /^claude-([a-z]+)-(\d+)(?:-(\d{1,2}))?(?:-(\d{8}))?$/;
const OLDER_NAMING = /^claude-(\d+)(?:-(\d{1,2}))?-([a-z]+)(?:-(\d{8}|latest))?$/;

function version(family: string, major: string, minor: string | undefined, stamp: string | undefined) {
  const stampRank = stamp === undefined ? 0 : stamp === "latest" ? 1 : 2;
  const date = stampRank === 2 && stamp !== undefined ? stamp : "";
  return { family, major: Number(major), minor: minor === undefined ? 0 : Number(minor), stampRank, date };
}

/** Reads family and version from an Anthropic model id; undefined when it follows neither naming. */
export function parseClaudeId(id: string): ClaudeVersion | undefined {
  const current = CURRENT_NAMING.exec(id);
  if (current?.[1] !== undefined && current[2] !== undefined) {
    return version(current[1], current[2], current[3], current[4]);
  }
  const older = OLDER_NAMING.exec(id);
  if (older?.[1] !== undefined && older[3] !== undefined) {
    return version(older[3], older[1], older[2], older[4]);
  }
  return undefined;
}

/** Positive when `a` is more recent (a better alias target) than `b`. */
function compareRecency(a: ClaudeVersion, b: ClaudeVersion): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.stampRank !== b.stampRank) return b.stampRank - a.stampRank;
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}

/** The model an alias names among `models`, or undefined when the catalog has none of that family. */
export function latestClaudeModel(
  models: readonly CatalogModel[],
  alias: ClaudeAlias,
): CatalogModel | undefined {
  let best: { model: CatalogModel; version: ClaudeVersion } | undefined;
  for (const model of models) {
    if (model.provider !== "anthropic") continue;
    const parsed = parseClaudeId(model.id);
    if (parsed?.family !== alias) continue;
    if (best === undefined || compareRecency(parsed, best.version) > 0) best = { model, version: parsed };
  }
  return best?.model;
}
