/**
 * The catalog's figures for each Loop, computed once for every face (`loops ls`, the daemon's
 * `/loops`, the catalog page): over the runs that ended in the last 30 days, `done` is the only
 * success; `no-op` (nothing to do) is counted apart and left out of the rate, so a Loop that only
 * ever finds nothing to do shows no rate rather than a perfect one.
 */
export interface CatalogRun {
  readonly id: string;
  readonly loopId: string;
  readonly state: string;
  readonly cause: string | null;
  readonly endedAt: string | null;
  readonly contract: {
    readonly notices?: ReadonlyArray<{ readonly code: string; readonly message: string }>;
  };
}

export interface CatalogEntry {
  readonly loopId: string;
  /** Runs that ended in the window, no-op included. */
  readonly ended: number;
  readonly done: number;
  readonly noOp: number;
  /** `done` among the ended runs that were not no-op; null when there is none. */
  readonly successPercent: number | null;
  /** The newest run (live or ended). */
  readonly last: { readonly id: string; readonly state: string; readonly cause: string | null } | null;
  /** The newest run was admitted with a definition that changed since the run before it. */
  readonly definitionChanged: string | null;
}

const WINDOW_MS = 30 * 86_400_000;

/** Pure: one entry per loop, in loop id order; `runs` newest first (as the store lists them). */
export function catalogEntries(runs: readonly CatalogRun[], now: number): CatalogEntry[] {
  const byLoop = new Map<string, CatalogRun[]>();
  for (const run of runs) byLoop.set(run.loopId, [...(byLoop.get(run.loopId) ?? []), run]);
  return [...byLoop.keys()].sort().map((loopId) => {
    const loopRuns = byLoop.get(loopId) ?? [];
    const ended = loopRuns.filter((r) => r.endedAt !== null && now - Date.parse(r.endedAt) <= WINDOW_MS);
    const done = ended.filter((r) => r.state === "done").length;
    const noOp = ended.filter((r) => r.state === "no-op").length;
    const counted = ended.length - noOp;
    const newest = loopRuns[0];
    return {
      loopId,
      ended: ended.length,
      done,
      noOp,
      successPercent: counted === 0 ? null : Math.round((100 * done) / counted),
      last: newest === undefined ? null : { id: newest.id, state: newest.state, cause: newest.cause },
      definitionChanged:
        newest?.contract.notices?.find((n) => n.code === "definition-changed")?.message ?? null,
    };
  });
}

/** `67% done (2 of 3)`, `no run counted`: the rate as every face prints it. */
export function successText(entry: CatalogEntry): string {
  const counted = entry.ended - entry.noOp;
  const rate =
    entry.successPercent === null
      ? "no run counted"
      : `${entry.successPercent}% done (${entry.done} of ${counted})`;
  return entry.noOp === 0 ? rate : `${rate}; ${entry.noOp} no-op apart`;
}
