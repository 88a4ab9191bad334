import { useCallback, useState } from "react";
import { formatCount } from "../shared/format.ts";
import { useDaemonData } from "./daemon-client.ts";
import type { LoopRun, LoopsInfo } from "./daemon-types.ts";
import { LoopActions } from "./loop-actions.tsx";
import { StateBadge } from "./run-states.tsx";

const DAY_MS = 86_400_000;
/** The limits the catalog shows, as `default / ceiling` for the loop's kind. */
const SHOWN_LIMITS = ["iteration_cap", "window", "failure_breaker", "gate_max_revisions", "inactivity_sec"];

interface LoopRow {
  readonly loopId: string;
  readonly name: string;
  readonly kind: string;
  readonly owner: string | null;
  readonly last: LoopRun | undefined;
  readonly successRate: string;
}

/**
 * Every Loop the daemon knows (registered definitions and loops with runs): its last outcome, its
 * success rate over 30 days (done or no-op among ended runs), kind, owner, and the limits of its kind as
 * default / ceiling.
 */
export function CatalogPage() {
  const allEvents = useCallback(() => true, []);
  const runs = useDaemonData<LoopRun[]>("/runs", allEvents);
  const info = useDaemonData<LoopsInfo>("/loops", allEvents);
  const error = runs.error ?? info.error;
  const rows = catalogRows(runs.data ?? [], info.data, Date.now());
  const [acting, setActing] = useState<string | undefined>(undefined);
  return (
    <main className="loops-main">
      <h2>Catalog</h2>
      {error !== undefined && <p role="alert">{error}</p>}
      {rows.length === 0 ? (
        <p>No Loop has been registered or run yet: `hankweave loops run &lt;definition&gt;` adds one.</p>
      ) : (
        <table className="catalog">
          <caption className="muted">Limits: default / ceiling for the Loop's kind (∞: unbounded).</caption>
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
                <td>{row.successRate}</td>
                <td className="limits">{limitsText(info.data, row.kind)}</td>
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

function catalogRows(runs: readonly LoopRun[], info: LoopsInfo | undefined, now: number): LoopRow[] {
  const byLoop = new Map<string, LoopRun[]>();
  for (const run of runs) byLoop.set(run.loopId, [...(byLoop.get(run.loopId) ?? []), run]);
  const ids = new Set([...(info?.loops ?? []).map((loop) => loop.loopId), ...byLoop.keys()]);
  return [...ids].sort().map((loopId) => {
    const loopRuns = byLoop.get(loopId) ?? [];
    const registered = info?.loops.find((loop) => loop.loopId === loopId);
    const last = loopRuns[0];
    const ended = loopRuns.filter(
      (run) => run.endedAt !== null && now - Date.parse(run.endedAt) <= 30 * DAY_MS,
    );
    const good = ended.filter((run) => run.state === "done" || run.state === "no-op").length;
    return {
      loopId,
      name: registered?.name ?? last?.contract.name ?? loopId,
      kind: registered?.kind ?? last?.contract.kind ?? "delivery",
      owner: last?.contract.owner ?? null,
      last,
      successRate:
        ended.length === 0
          ? "no ended run"
          : `${Math.round((100 * good) / ended.length)}% of ${ended.length}`,
    };
  });
}

function limitsText(info: LoopsInfo | undefined, kind: string): string {
  if (info === undefined) return "–";
  const defaults = info.defaults[kind] ?? {};
  const show = (n: number | undefined) => (n === undefined || n === 0 ? "∞" : formatCount(n));
  return SHOWN_LIMITS.map((key) => `${key} ${show(defaults[key])} / ${show(info.ceilings[key])}`).join(" · ");
}
