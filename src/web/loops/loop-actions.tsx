import { useEffect, useState } from "react";
import { getJson } from "./daemon-client.ts";

interface LintAnswer {
  readonly file: string;
  readonly issues: readonly { readonly path: string; readonly message: string; readonly hint: string }[];
  readonly report: {
    readonly admitted: boolean;
    readonly rows: readonly { readonly condition: string; readonly met: boolean; readonly answer: string }[];
    readonly warnings: readonly { readonly code: string; readonly message: string }[];
  } | null;
}

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
    getJson<LintAnswer>(`/loops/${encodeURIComponent(loopId)}/lint`).then(setLint, (caught: unknown) =>
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

async function startRun(loopId: string, key: string): Promise<StartResult> {
  const response = await fetch(`/loops/${encodeURIComponent(loopId)}/runs`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${new URLSearchParams(location.search).get("token") ?? ""}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ idempotencyKey: key }),
  });
  const body = (await response.json().catch(() => ({}))) as { run?: { id: string }; error?: string };
  if (body.run !== undefined)
    return { kind: response.status === 201 ? "started" : "duplicate", runId: body.run.id };
  return { kind: "error", message: body.error ?? `The daemon answered HTTP ${response.status}` };
}
