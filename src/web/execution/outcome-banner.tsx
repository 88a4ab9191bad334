import type { RunCounts } from "../../journal/run-counts.ts";
import { countsText } from "../../journal/run-words.ts";
import type { Outcome, RollbackView } from "./execution-model.ts";

const LABELS: Readonly<Record<Outcome["kind"], string>> = {
  none: "Waiting for the run",
  running: "Running",
  waiting: "Waiting for you",
  completed: "Completed",
  failed: "Failed",
  aborted: "Stopped",
  interrupted: "Interrupted",
};

/** The run's outcome with its cause, announced to screen readers when it changes. */
export function OutcomeBanner(props: {
  readonly outcome: Outcome;
  readonly rollback: RollbackView | undefined;
  readonly counts: RunCounts;
  readonly undone: string | undefined;
}) {
  const { outcome, rollback, counts } = props;
  const cause = outcome.kind === "waiting" ? outcome.message : "cause" in outcome ? outcome.cause : undefined;
  return (
    <div
      className={`banner banner-${outcome.kind}`}
      role="status"
      aria-live="polite"
      data-outcome={outcome.kind}
    >
      <strong>{LABELS[outcome.kind]}</strong>
      {cause !== undefined && <span className="cause">: {cause}</span>}
      {counts.total > 0 && (
        <p className="counts" data-counts={JSON.stringify(counts)}>
          {countsText(counts)}
        </p>
      )}
      {props.undone !== undefined && (
        <p className="undone" data-undone>
          Left undone: {props.undone}. Raise the ceiling and run the execution again to do it.
        </p>
      )}
      {rollback !== undefined && (
        <p className="rollback-note" data-rollback={rollback.phase}>
          {rollback.message}
        </p>
      )}
    </div>
  );
}
