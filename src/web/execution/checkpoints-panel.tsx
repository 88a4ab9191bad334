import { memo, useState } from "react";
import { useLatest } from "../shared/use-latest.tsx";
import { diffStats, type ExecutionModel } from "./execution-model.ts";
import type { CheckpointRow } from "./use-execution.ts";

/**
 * Memoised on its props: the list changes only with a new `checkpoint.list` answer (a codon's files are
 * final once its checkpoint exists), not with every event of a busy run.
 */
export const CheckpointsPanel = memo(CheckpointList);

/**
 * The current run's checkpoints with the files each codon changed, and a rollback to any of them
 * (read-write clients only). A rollback asks for confirmation in place: two keyboard-reachable buttons.
 */
function CheckpointList(props: {
  readonly model: ExecutionModel;
  readonly checkpoints: readonly CheckpointRow[] | undefined;
  readonly canWrite: boolean;
  readonly send: (type: string, data?: Record<string, unknown>) => boolean;
}) {
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const { checkpoints } = props;
  const latest = useLatest(checkpoints ?? [], 50, "checkpoints");
  return (
    <section aria-labelledby="checkpoints-title" className="checkpoints">
      <h2 id="checkpoints-title">Checkpoints</h2>
      {latest.more}
      {checkpoints === undefined || checkpoints.length === 0 ? (
        <p>No checkpoints yet.</p>
      ) : (
        <ol>
          {latest.shown.map((checkpoint) => {
            const stats = diffStats(props.model.codons.get(checkpoint.codonId));
            const label = `${checkpoint.codonId} (${checkpoint.checkpointType})`;
            return (
              <li key={checkpoint.sha} data-checkpoint={checkpoint.sha} data-codon={checkpoint.codonId}>
                <span className="checkpoint-name">{label}</span> <code>{checkpoint.sha.slice(0, 10)}</code>
                <span className="diff-stats">
                  +{stats.created} ~{stats.modified} −{stats.deleted} files
                </span>
                {props.canWrite &&
                  (confirming === checkpoint.sha ? (
                    <span className="confirm">
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          setConfirming(undefined);
                          props.send("rollback.toCheckpoint", { checkpointSha: checkpoint.sha });
                        }}
                      >
                        Confirm rollback to {label}
                      </button>
                      <button type="button" onClick={() => setConfirming(undefined)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button type="button" onClick={() => setConfirming(checkpoint.sha)}>
                      Roll back to {label}
                    </button>
                  ))}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
