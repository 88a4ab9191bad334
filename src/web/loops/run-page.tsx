import { Fragment, useCallback, useEffect, useState } from "react";
import type { RequestOf } from "../../events/daemon-route-types.ts";
import { callDaemon, useDaemonData } from "./daemon-client.ts";
import { GenerationCharts } from "./generation-charts.tsx";
import { GenerationList } from "./generation-list.tsx";
import { NeedsYou } from "./needs-you.tsx";
import { RunInbox } from "./run-inbox.tsx";
import { RunMeters, runBudgets } from "./run-meters.tsx";
import { causeText, StateBadge, stateLabel, TERMINAL_STATES } from "./run-states.tsx";
import { TokensChart } from "./tokens-chart.tsx";

/**
 * A Loop run: the pinned contract (sticky), the five meters, the generations with their gate verdicts,
 * the inbox, "Needs you" when parked, the operator verbs, and the outcome banner with its cause.
 */
export function RunPage(props: { readonly runId: string }) {
  const { runId } = props;
  const thisRun = useCallback((event: { runId?: string }) => event.runId === runId, [runId]);
  const { data, error, reload } = useDaemonData("getRun", { params: { id: runId } }, thisRun);
  const [actionError, setActionError] = useState<string | undefined>(undefined);
  const state = data?.run.state;
  useEffect(() => {
    document.title = `hankweave: ${runId}${state === undefined ? "" : ` (${stateLabel(state)})`}`;
  }, [runId, state]);
  const settle = (call: Promise<unknown>) =>
    call.then(
      () => {
        setActionError(undefined);
        reload();
      },
      (caught: unknown) => setActionError(caught instanceof Error ? caught.message : String(caught)),
    );
  const params = { id: runId };
  const command = (body: RequestOf<"sendCommand">["body"]) =>
    settle(callDaemon("sendCommand", { params, body: { by: "web", ...body } }));
  const note = (text: string) => settle(callDaemon("addNote", { params, body: { by: "web", text } }));
  if (data === undefined) {
    return (
      <main className="loops-main">
        {error === undefined ? <p>Loading {runId}…</p> : <p role="alert">{error}</p>}
      </main>
    );
  }
  const { run } = data;
  const terminal = TERMINAL_STATES.has(run.state);
  return (
    <main className="loops-main" data-run={run.id} data-state={run.state}>
      <section className="contract" aria-labelledby="contract-title">
        <h2 id="contract-title">
          {run.contract.name} <StateBadge state={run.state} /> <span className="muted">run {run.id}</span>
        </h2>
        <dl>
          <dt>Goal</dt>
          <dd>{run.contract.goal}</dd>
          <dt>Definition of done</dt>
          <dd>{run.contract.definitionOfDone ?? "–"}</dd>
          <dt>Pinned limits</dt>
          <dd>
            {Object.entries(run.contract.limits)
              .map(([key, value]) => `${key} ${value === 0 ? "∞" : value}`)
              .join(" · ")}
            {run.contract.clamped.length > 0 && ` (clamped: ${run.contract.clamped.join("; ")})`}
          </dd>
          {run.contract.admittedAnyway !== null && run.contract.admittedAnyway !== undefined && (
            <>
              <dt>Admitted anyway</dt>
              <dd>{run.contract.admittedAnyway}</dd>
            </>
          )}
          {(run.contract.notices ?? []).map((notice) => (
            <Fragment key={notice.message}>
              <dt>Warning ({notice.code})</dt>
              <dd data-notice={notice.code}>{notice.message}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <div className="outcome-banner" role="status" aria-live="polite" data-banner={run.state}>
        <StateBadge state={run.state} />{" "}
        {terminal
          ? (causeText(run.cause) ?? "ended")
          : (causeText(run.parkReason) ?? (run.state === "running" ? "a generation is under way" : ""))}
        {data.endLayers !== null && (
          <span className="muted" data-layers="run">
            {" "}
            · driver {data.endLayers.driver} · goal {data.endLayers.goal}
          </span>
        )}
      </div>
      {(error ?? actionError) !== undefined && <p role="alert">{actionError ?? error}</p>}
      {run.state === "needs-approval" && (
        <NeedsYou parkReason={run.parkReason} onAnswer={(answer) => command(answer)} />
      )}
      {!terminal && (
        <fieldset className="verbs">
          <legend className="visually-hidden">Operator verbs</legend>
          {(run.state === "running" || run.state === "watching") && (
            <button type="button" onClick={() => command({ type: "pause" })}>
              Pause
            </button>
          )}
          {run.state === "paused" && (
            <button type="button" onClick={() => command({ type: "resume" })}>
              Resume
            </button>
          )}
          <button type="button" className="danger" onClick={() => command({ type: "stop" })}>
            Stop
          </button>
        </fieldset>
      )}
      <div className="run-grid">
        <GenerationList generations={data.generations} />
        <div>
          <RunMeters run={run} />
          <TokensChart generations={data.generations} />
          <GenerationCharts generations={data.generations} tokenBudget={runBudgets(run).tokens} />
          <RunInbox messages={data.messages} onNote={(text) => note(text)} canWrite={!terminal} />
        </div>
      </div>
    </main>
  );
}
