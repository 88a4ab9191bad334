import { useCallback, useState } from "react";
import type { SuccessOf } from "../../events/daemon-route-types.ts";
import type { LoopRunView as LoopRun } from "../../events/loop-records.ts";
import type { LimitKey, LoopKindName } from "../../events/loop-words.ts";
import { formatCount } from "../shared/format.ts";
import { callDaemon, useDaemonLoad } from "./daemon-client.ts";

type LoopsInfo = SuccessOf<"listLoops">;

import { LoopActions } from "./loop-actions.tsx";
import { OutcomesStrip } from "./outcomes-strip.tsx";
import { StateBadge } from "./run-states.tsx";

/** The limits the catalog shows: the last run's pinned value (else the kind's default) / the ceiling. */
const SHOWN_LIMITS = [
  "iteration_cap",
  "window",
  "failure_breaker",
  "gate_max_revisions",
  "inactivity_sec",
] as const satisfies readonly LimitKey[];

interface LoopRow {
  readonly loopId: string;
  readonly name: string;
  readonly kind: LoopKindName;
  readonly owner: string | null;
  readonly last: LoopRun | undefined;
  /** The loop's runs, newest first. */
  readonly runs: readonly LoopRun[];
  readonly successRate: string;
  readonly definitionChanged: string | null;
}

/**
 * Every Loop the daemon knows (registered definitions and loops with runs): its last outcome, its
 * success over 30 days as the daemon computes it (`done` only; no-op apart), kind, owner, and its
 * limits as pinned by its last run (the kind's defaults before any run) / the ceiling.
 */
export function CatalogPage() {
  const allEvents = useCallback(() => true, []);
  const loaded = useDaemonLoad(loadCatalog, "catalog", allEvents);
  const { error } = loaded;
  const info = loaded.data?.info;
  const rows = catalogRows(loaded.data?.runs ?? [], info);
  const [acting, setActing] = useState<string | undefined>(undefined);
  return (
    <main className="loops-main">
      <h2>Catalog</h2>
      {error !== undefined && <p role="alert">{error}</p>}
      {rows.length === 0 ? (
        <p>No Loop has been registered or run yet: `hankweave loops run &lt;definition&gt;` adds one.</p>
      ) : (
        <table className="catalog">
          <caption className="muted">
            Limits: the Loop's own value (its last run's, else the kind's default) / the ceiling (∞:
            unbounded).
          </caption>
          <thead>
            <tr>
              <th scope="col">Loop</th>
              <th scope="col">Kind</th>
              <th scope="col">Owner</th>
              <th scope="col">Last outcome</th>
              <th scope="col">Success (30 days)</th>
              <th scope="col">Limits</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.loopId} data-loop={row.loopId}>
                <th scope="row">
                  {row.name} <code>{row.loopId}</code>
                </th>
                <td>{row.kind}</td>
                <td>{row.owner ?? "–"}</td>
                <td>
                  {row.last === undefined ? (
                    "no run yet"
                  ) : (
                    <a href={`#/runs/${encodeURIComponent(row.last.id)}`}>
                      <StateBadge state={row.last.state} /> {row.last.cause ?? row.last.parkReason ?? ""}{" "}
                      <span className="muted">run {row.last.id}</span>
                    </a>
                  )}
                </td>
                <td>
                  {row.successRate}
                  <OutcomesStrip runs={row.runs} now={Date.now()} />
                  {row.definitionChanged !== null && (
                    <p className="muted" data-notice="definition-changed">
                      {row.definitionChanged}
                    </p>
                  )}
                </td>
                <td className="limits">{limitsText(info, row.kind, row.last)}</td>
                <td>
                  <button type="button" onClick={() => setActing(row.loopId)}>
                    Lint and start {row.loopId}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {acting !== undefined && (
        <LoopActions key={acting} loopId={acting} onClose={() => setActing(undefined)} />
      )}
    </main>
  );
}

/**
 * The runs, then the loops' figures, in one refresh: the figures are asked after the runs, so a run a
 * row shows ended is counted in its success rate (two independent loads could show it ended beside
 * figures read before it ended).
 */
async function loadCatalog(): Promise<{ runs: readonly LoopRun[]; info: LoopsInfo }> {
  const runs = await callDaemon("listRuns", {});
  const info = await callDaemon("listLoops", {});
  return { runs, info };
}

function catalogRows(runs: readonly LoopRun[], info: LoopsInfo | undefined): LoopRow[] {
  const byLoop = new Map<string, LoopRun[]>();
  for (const run of runs) byLoop.set(run.loopId, [...(byLoop.get(run.loopId) ?? []), run]);
  const ids = new Set([...(info?.loops ?? []).map((loop) => loop.loopId), ...byLoop.keys()]);
  return [...ids].sort().map((loopId) => {
    const loopRuns = byLoop.get(loopId) ?? [];
    const registered = info?.loops.find((loop) => loop.loopId === loopId);
    const last = loopRuns[0];
    const entry = info?.catalog.find((e) => e.loopId === loopId);
    return {
      loopId,
      name: registered?.name ?? last?.contract.name ?? loopId,
      kind: registered?.kind ?? last?.contract.kind ?? "delivery",
      owner: last?.contract.owner ?? null,
      last,
      runs: loopRuns,
      successRate: entry === undefined || entry.ended === 0 ? "no ended run" : entry.successText,
      definitionChanged: entry?.definitionChanged ?? null,
    };
  });
}

function limitsText(info: LoopsInfo | undefined, kind: LoopKindName, last: LoopRun | undefined): string {
  if (info === undefined) return "–";
  const defaults = last?.contract.limits ?? info.defaults[kind];
  const show = (n: number | undefined) => (n === undefined || n === 0 ? "∞" : formatCount(n));
  return SHOWN_LIMITS.map((key) => `${key} ${show(defaults[key])} / ${show(info.ceilings[key])}`).join(" · ");
}
