import { useEffect, useState } from "react";
import type { SuccessOf } from "../../events/daemon-route-types.ts";
import { callDaemon } from "./daemon-client.ts";

type LintAnswer = SuccessOf<"lintLoop">;

type StartResult =
  | { readonly kind: "started" | "duplicate"; readonly runId: string }
  | { readonly kind: "error"; readonly message: string };

/**
 * One Loop's actions: its lint (validation issues, then the seven admission conditions) and a start
 * with an idempotency key (the same key twice returns the first run, never a second one).
 */
export function LoopActions(props: { readonly loopId: string; readonly onClose: () => void }) {
  const { loopId } = props;
  const [lint, setLint] = useState<LintAnswer | string | undefined>(undefined);
  const [key, setKey] = useState(() => `web:${loopId}:${new Date().toISOString()}`);
  const [result, setResult] = useState<StartResult | undefined>(undefined);
  useEffect(() => {
    callDaemon("lintLoop", { params: { id: loopId } }).then(setLint, (caught: unknown) =>
      setLint(caught instanceof Error ? caught.message : String(caught)),
    );
  }, [loopId]);
  const start = async (): Promise<void> => {
    setResult(await startRun(loopId, key));
  };
  return (
    <section aria-labelledby="actions-title" className="loop-actions" data-actions={loopId}>
      <h2 id="actions-title">Loop {loopId}</h2>
      <h3>Lint</h3>
      <LintView lint={lint} />
      <h3>Start a run</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <label>
          Idempotency key <input type="text" value={key} onChange={(event) => setKey(event.target.value)} />
        </label>{" "}
        <button type="submit">Start</button>{" "}
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </form>
      {result !== undefined && (
        <p role="status" data-start={result.kind}>
          {result.kind === "error" ? (
            result.message
          ) : (
            <>
              {result.kind === "started" ? "Started " : "This key already started "}
              <a href={`#/runs/${encodeURIComponent(result.runId)}`}>run {result.runId}</a>
            </>
          )}
        </p>
      )}
    </section>
  );
}

function LintView(props: { readonly lint: LintAnswer | string | undefined }) {
  const { lint } = props;
  if (lint === undefined) return <p>Linting…</p>;
  if (typeof lint === "string") return <p role="alert">{lint}</p>;
  if (lint.issues.length > 0) {
    return (
      <ul className="lint-issues">
        {lint.issues.map((issue) => (
          <li key={`${issue.path}:${issue.message}`}>
            <code>{issue.path}</code>: {issue.message} {issue.hint}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="catalog lint" data-admitted={lint.report?.admitted === true}>
      <caption>
        {lint.file}: {lint.report?.admitted === true ? "admitted" : "not admitted"}
      </caption>
      <tbody>
        {lint.report?.rows.map((row) => (
          <tr key={row.condition}>
            <th scope="row">{row.condition}</th>
            <td>{row.met ? "met" : "missing"}</td>
            <td>{row.answer}</td>
          </tr>
        ))}
        {lint.report?.warnings.map((warning) => (
          <tr key={warning.code}>
            <th scope="row">warning</th>
            <td>{warning.code}</td>
            <td>{warning.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Starts a run with the key; a refusal (admission, a bad request) is shown with the daemon's sentence. */
async function startRun(loopId: string, key: string): Promise<StartResult> {
  try {
    const answer = await callDaemon("startRun", { params: { id: loopId }, body: { idempotencyKey: key } });
    return { kind: answer.outcome === "admitted" ? "started" : "duplicate", runId: answer.run.id };
  } catch (caught) {
    return { kind: "error", message: caught instanceof Error ? caught.message : String(caught) };
  }
}
