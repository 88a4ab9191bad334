import { memo, useState } from "react";
import { formatCount, formatMs, formatUsd } from "../shared/format.ts";
import type { CodonView, IterationView, TimelineEntry } from "./execution-model.ts";

/**
 * The plan as it unfolds: one row per codon (loop iterations appear as their codons are created) and
 * one summary row per finished loop iteration. Each codon row is a button that selects it. Rows are
 * memoised on their codon's version: following a long loop re-renders only the rows that changed. A
 * long timeline shows its latest `SHOWN_ROWS` entries; earlier ones are a button press away (laying
 * out 2,000 rows of a 1,000-iteration loop would cost the first paint seconds).
 */
const SHOWN_ROWS = 200;

export function Timeline(props: {
  readonly entries: readonly TimelineEntry[];
  readonly selected: string | undefined;
  readonly onSelect: (codonId: string) => void;
  /** Present while older events than the page holds exist (history paging): asks for them. */
  readonly onLoadOlder?: () => void;
}) {
  const [shown, setShown] = useState(SHOWN_ROWS);
  const hidden = Math.max(0, props.entries.length - shown);
  return (
    <nav aria-label="Timeline" className="timeline">
      <h2>Timeline</h2>
      {hidden > 0 && (
        <button type="button" className="show-earlier" onClick={() => setShown((n) => n + 1000)}>
          Show {Math.min(hidden, 1000)} earlier of {hidden} hidden entries
        </button>
      )}
      {hidden === 0 && props.onLoadOlder !== undefined && (
        <button
          type="button"
          className="show-earlier load-older"
          onClick={() => {
            setShown((n) => n + 1000);
            props.onLoadOlder?.();
          }}
        >
          Load earlier events
        </button>
      )}
      <ol>
        {props.entries
          .slice(hidden)
          .map((entry) =>
            entry.kind === "codon" ? (
              <CodonRow
                key={`c:${entry.codon.id}`}
                codon={entry.codon}
                version={entry.codon.version}
                selected={props.selected === entry.codon.id}
                onSelect={props.onSelect}
              />
            ) : (
              <IterationRow
                key={`i:${entry.iteration.loopId}:${entry.iteration.iteration}`}
                iteration={entry.iteration}
              />
            ),
          )}
      </ol>
    </nav>
  );
}

const CodonRow = memo(function CodonRow(props: {
  readonly codon: CodonView;
  /** Not read: it makes a changed codon a changed prop. */
  readonly version: number;
  readonly selected: boolean;
  readonly onSelect: (codonId: string) => void;
}) {
  const { codon } = props;
  return (
    <li data-codon={codon.id} data-status={codon.status}>
      <button
        type="button"
        aria-current={props.selected ? "true" : undefined}
        onClick={() => props.onSelect(codon.id)}
      >
        <span className={`status status-${codon.status}`}>{codon.status}</span>{" "}
        <span className="codon-id">{codon.id}</span>
        <span className="codon-facts">
          {codon.position === undefined ? "" : `${codon.position} · `}
          {codon.model ?? "–"} · attempt {codon.attempt} · {formatMs(codon.durationMs)} ·{" "}
          {formatCount(codon.tokens)} tokens · {formatUsd(codon.cost)}
        </span>
        {codon.endReasons !== undefined && (
          <span className="end-reasons">
            ends: stream {codon.endReasons.stream}, tools {codon.endReasons.toolBatch}, turn{" "}
            {codon.endReasons.turn}, codon {codon.endReasons.codon}
          </span>
        )}
      </button>
    </li>
  );
});

const IterationRow = memo(function IterationRow(props: { readonly iteration: IterationView }) {
  const { iteration } = props;
  return (
    <li className="iteration" data-iteration={iteration.iteration}>
      loop {iteration.loopId} · iteration {iteration.iteration} done · {formatMs(iteration.durationMs)} ·{" "}
      {formatCount(iteration.tokens)} tokens · {formatUsd(iteration.cost)}
      {iteration.isFinal && ` · loop ended: ${iteration.end ?? "done"}`}
    </li>
  );
});
