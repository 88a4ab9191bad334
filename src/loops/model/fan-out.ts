import { createHash } from "node:crypto";
import type { BodyEnd, GateVerdict, GateVerdictKind } from "./generation-facts.ts";
import type { WatchItem } from "./watch.ts";

/**
 * Fan-out as pure functions: a generation of a fanned-out Loop runs its body once per item (at most
 * `width` at a time, each item on a workspace of its own) and its gates once per item; these fold the
 * items' results into the one generation the stop model decides from. The worst item wins: a generation
 * passes only when every item passes.
 */

/** More items than the ceiling: the run ends `exhausted: fan_out_ceiling` (the width is only clamped). */
export function overCeiling(items: readonly WatchItem[], ceiling: number): boolean {
  return ceiling > 0 && items.length > ceiling;
}

/** Parses an items command's stdout: a JSON array of objects with a string `id`, ids unique. */
export function parseItems(
  stdout: string,
): { ok: true; items: WatchItem[] } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim() || "null");
  } catch {
    return { ok: false, message: "the items command printed no JSON array" };
  }
  if (!Array.isArray(parsed)) return { ok: false, message: "the items command printed no JSON array" };
  const ids = new Set<string>();
  for (const [index, item] of parsed.entries()) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || !/^[A-Za-z0-9._-]+$/.test(id))
      return { ok: false, message: `item ${index} needs an "id" of letters, digits, '.', '_' or '-'` };
    if (ids.has(id)) return { ok: false, message: `item id "${id}" appears twice` };
    ids.add(id);
  }
  return { ok: true, items: parsed as WatchItem[] };
}

const BODY_SEVERITY: Readonly<Record<BodyEnd["kind"], number>> = {
  completed: 0,
  interrupted: 1,
  aborted: 2,
  error: 3,
  blocked: 4,
};

/** The generation's body end: the worst item's (an unrecoverable error over a transient one). */
export function foldBodyEnds(ends: readonly BodyEnd[]): BodyEnd {
  let worst: BodyEnd = { kind: "completed" };
  for (const end of ends) {
    const rank = (e: BodyEnd) => BODY_SEVERITY[e.kind] + (e.kind === "error" && e.unrecoverable ? 0.5 : 0);
    if (rank(end) > rank(worst)) worst = end;
  }
  return worst;
}

const VERDICT_SEVERITY: Readonly<Record<GateVerdictKind, number>> = {
  pass: 0,
  revise: 1,
  approval: 2,
  blocked: 3,
  error: 4,
};

/**
 * Per gate, the worst verdict over the items, with the union of their blocker ids (prefixed by the
 * item, so the blocker signature tells items apart) and one summary line per item that did not pass.
 */
export function foldVerdicts(
  perItem: ReadonlyArray<{ id: string; verdicts: readonly GateVerdict[] }>,
): GateVerdict[] {
  const byGate = new Map<string, GateVerdict>();
  for (const { id, verdicts } of perItem) {
    for (const verdict of verdicts) {
      const seen = byGate.get(verdict.gateId);
      const blockerIds = [...(seen?.blockerIds ?? []), ...verdict.blockerIds.map((b) => `${id}/${b}`)].sort();
      const worse = seen === undefined || VERDICT_SEVERITY[verdict.verdict] > VERDICT_SEVERITY[seen.verdict];
      const base = worse ? verdict : seen;
      const note = verdict.verdict === "pass" ? [] : [`${id}: ${verdict.summary}`];
      const summary = [...(seen === undefined || seen.verdict === "pass" ? [] : [seen.summary]), ...note];
      const tokens =
        seen?.tokens === null || verdict.tokens === null ? null : (seen?.tokens ?? 0) + (verdict.tokens ?? 0);
      byGate.set(verdict.gateId, { ...base, blockerIds, summary: summary.join("; ") || "pass", tokens });
    }
  }
  return [...byGate.values()];
}

/** The generation's workspace tree: one hash over every item's tree (null when any item has none). */
export function foldTrees(trees: ReadonlyArray<{ id: string; tree: string | null }>): string | null {
  if (trees.some((t) => t.tree === null)) return null;
  const sorted = [...trees].sort((a, b) => a.id.localeCompare(b.id)).map((t) => `${t.id}:${t.tree}`);
  return createHash("sha256").update(sorted.join("\n")).digest("hex").slice(0, 40);
}
