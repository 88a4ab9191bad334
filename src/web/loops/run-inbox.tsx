import { useState } from "react";
import type { InboxMessageView as InboxMessage } from "../../events/loop-records.ts";

/** The run's inbox, oldest first, with who wrote each message and which generation read it; a note form. */
export function RunInbox(props: {
  readonly messages: readonly InboxMessage[];
  readonly canWrite: boolean;
  readonly onNote: (text: string) => void;
}) {
  const [text, setText] = useState("");
  return (
    <section aria-labelledby="inbox-title" className="inbox">
      <h2 id="inbox-title">Inbox</h2>
      {props.messages.length === 0 && <p>No message.</p>}
      <ol>
        {props.messages.map((message) => (
          <li key={message.id}>
            <span className="muted">
              #{message.id} {message.kind} by {message.author}
              {message.readByGeneration === null
                ? ", unread"
                : `, read by generation ${message.readByGeneration}`}
              :
            </span>{" "}
            {message.text}
          </li>
        ))}
      </ol>
      {props.canWrite && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() === "") return;
            props.onNote(text.trim());
            setText("");
          }}
        >
          <label>
            Note to the next generation{" "}
            <input type="text" value={text} onChange={(e) => setText(e.target.value)} />
          </label>{" "}
          <button type="submit">Add note</button>
        </form>
      )}
    </section>
  );
}
