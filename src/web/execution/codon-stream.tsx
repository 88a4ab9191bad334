import type { CodonView, StreamItem } from "./execution-model.ts";

/** The most recent items shown; older ones stay in the journal (a long codon must not slow the page). */
const SHOWN_ITEMS = 300;

/** The selected codon's live stream: assistant text, tool calls folded (open one to see it), file changes. */
export function CodonStream(props: { readonly codon: CodonView | undefined }) {
  const { codon } = props;
  if (codon === undefined) {
    return (
      <section aria-labelledby="stream-title" className="stream">
        <h2 id="stream-title">Stream</h2>
        <p>No codon has started yet.</p>
      </section>
    );
  }
  const items = codon.stream.slice(-SHOWN_ITEMS);
  return (
    <section aria-labelledby="stream-title" className="stream" data-codon={codon.id}>
      <h2 id="stream-title">
        Stream of {codon.id} <span className={`status status-${codon.status}`}>{codon.status}</span>
      </h2>
      {codon.failure !== undefined && <p className="failure">Failure: {codon.failure}</p>}
      {codon.stream.length > items.length && (
        <p className="muted">{codon.stream.length - items.length} earlier items are in the journal.</p>
      )}
      <ol className="stream-items">
        {items.map((item) => (
          <li key={item.seq} className={`item item-${item.kind}`}>
            <StreamItemView item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function StreamItemView(props: { readonly item: StreamItem }) {
  const { item } = props;
  switch (item.kind) {
    case "text":
      return <p className="assistant-text">{item.text}</p>;
    case "thinking":
      return <p className="thinking">{item.text}</p>;
    case "file":
      return (
        <p className="file-change">
          {item.action} <code>{item.path}</code>
        </p>
      );
    case "tool":
      return (
        <details>
          <summary>
            tool {item.name}
            {item.result === undefined ? " (running)" : item.result.isError ? " (error)" : ""}
          </summary>
          <pre>{item.input}</pre>
          {item.result !== undefined && <pre>{item.result.text}</pre>}
        </details>
      );
  }
}
