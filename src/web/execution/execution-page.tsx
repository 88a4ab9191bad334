import { useEffect, useState } from "react";
import { AttemptStrip } from "./attempt-strip.tsx";
import { BudgetMeters } from "./budget-meters.tsx";
import { CheckpointsPanel } from "./checkpoints-panel.tsx";
import { CodonStream } from "./codon-stream.tsx";
import { OutcomeBanner } from "./outcome-banner.tsx";
import { Timeline } from "./timeline.tsx";
import { type ExecutionStore, useExecution } from "./use-execution.ts";

/**
 * The execution page: the timeline, the selected codon's stream (the running one unless the reader
 * picked another), budget meters, checkpoints with rollback, and the outcome banner. History comes from
 * `history.sync`, then live events, so a reload shows the same page.
 */
export function ExecutionPage() {
  const { store } = useExecution();
  const { model } = store;
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const selectedId = picked ?? model.runningCodon ?? lastCodonId(model.timeline);
  const outcomeKind = model.outcome.kind;
  const checkpointEpoch = model.checkpointEpoch;
  const live = store.status === "live";
  // The checkpoint list changes when a codon ends, a rollback completes or a run ends: ask again then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the epoch is the trigger, not an input.
  useEffect(() => {
    if (live) store.send("checkpoint.list");
  }, [store, checkpointEpoch, live]);
  useEffect(() => {
    document.title = `hankweave: ${outcomeKind === "none" ? "execution" : outcomeKind}`;
  }, [outcomeKind]);
  return (
    <>
      <header className="page-header">
        <h1>Execution</h1>
        <p className="connection" data-connection={store.status}>
          {store.status} · {store.mode === "readonly" ? "read-only" : "read-write"} · {model.lastSeq} events
        </p>
      </header>
      {store.synced ? (
        <ExecutionBody store={store} picked={picked} setPicked={setPicked} selectedId={selectedId} />
      ) : (
        <main className="loading">
          <p role="status">Loading the journal: {model.lastSeq} events so far…</p>
        </main>
      )}
    </>
  );
}

function ExecutionBody(props: {
  readonly store: ExecutionStore;
  readonly picked: string | undefined;
  readonly setPicked: (codonId: string | undefined) => void;
  readonly selectedId: string | undefined;
}) {
  const { store, picked, setPicked, selectedId } = props;
  const { model } = store;
  return (
    <div className="execution-layout">
      <Timeline
        entries={model.timeline}
        selected={selectedId}
        onSelect={setPicked}
        {...(model.hasOlder && { onLoadOlder: store.loadOlder })}
      />
      <main>
        <OutcomeBanner
          outcome={model.outcome}
          rollback={model.rollback}
          counts={model.counts}
          undone={model.undone}
        />
        {store.notice !== undefined && (
          <p className="notice" role="alert">
            {store.notice}
          </p>
        )}
        <AttemptStrip
          bars={model.attempts.bars}
          cost={model.attempts.cost}
          tokens={model.attempts.tokens}
          ceilingUsd={model.budget?.ceiling.maxDollars}
          nowMs={Date.now()}
        />
        {picked !== undefined && (
          <button type="button" onClick={() => setPicked(undefined)}>
            Follow the running codon
          </button>
        )}
        <CodonStream codon={selectedId === undefined ? undefined : model.codons.get(selectedId)} />
      </main>
      <aside aria-label="Budget and checkpoints">
        <BudgetMeters model={model} />
        <CheckpointsPanel
          model={model}
          checkpoints={store.checkpoints}
          canWrite={store.mode === "readandwrite" && canRollBack(model.outcome.kind)}
          send={store.send}
        />
      </aside>
    </div>
  );
}

/** A rollback is offered only while the run waits for a command or after it ended, never mid-codon. */
function canRollBack(kind: ReturnType<typeof useExecution>["store"]["model"]["outcome"]["kind"]): boolean {
  return kind !== "running" && kind !== "none";
}

function lastCodonId(
  timeline: ReturnType<typeof useExecution>["store"]["model"]["timeline"],
): string | undefined {
  for (let i = timeline.length - 1; i >= 0; i -= 1) {
    const entry = timeline[i];
    if (entry?.kind === "codon") return entry.codon.id;
  }
  return undefined;
}
