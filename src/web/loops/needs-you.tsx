import { useState } from "react";
import { causeText } from "./run-states.tsx";

/**
 * The "Needs you" region of a parked run: approve (with an amount that re-arms the exhausted budget,
 * required for a budget escalation) or reject (with an optional note for the record).
 */
export function NeedsYou(props: {
  readonly parkReason: string | null;
  readonly onAnswer: (answer: { type: "approve" | "reject"; add?: number; comment?: string }) => void;
}) {
  const [add, setAdd] = useState("");
  const [note, setNote] = useState("");
  const budget = props.parkReason === "budget_escalated";
  const amount = Number(add);
  const amountOk = add === "" ? !budget : Number.isFinite(amount) && amount > 0;
  return (
    <section aria-labelledby="needs-you-title" className="needs-you">
      <h2 id="needs-you-title">Needs you</h2>
      <p>{causeText(props.parkReason) ?? "The run waits for a decision."}</p>
      <label>
        Add to the exhausted budget (tokens or seconds){budget ? ", required" : ", optional"}{" "}
        <input
          type="number"
          min={1}
          inputMode="numeric"
          value={add}
          onChange={(event) => setAdd(event.target.value)}
          aria-invalid={!amountOk}
        />
      </label>
      <label>
        Note for the record{" "}
        <input type="text" value={note} onChange={(event) => setNote(event.target.value)} />
      </label>
      <div className="verbs">
        <button
          type="button"
          disabled={!amountOk}
          onClick={() =>
            props.onAnswer({
              type: "approve",
              ...(add !== "" && { add: amount }),
              ...(note !== "" && { comment: note }),
            })
          }
        >
          Approve
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => props.onAnswer({ type: "reject", ...(note !== "" && { comment: note }) })}
        >
          Reject
        </button>
      </div>
    </section>
  );
}
