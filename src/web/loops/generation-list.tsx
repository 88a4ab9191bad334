import type { GenerationView as Generation } from "../../events/loop-records.ts";
import { formatCount, formatUsd } from "../shared/format.ts";

/** Each generation: the body's end, a card per gate verdict with its blocker ids, tokens, cost, layers. */
export function GenerationList(props: { readonly generations: readonly Generation[] }) {
  return (
    <section aria-labelledby="generations-title">
      <h2 id="generations-title">Generations</h2>
      {props.generations.length === 0 && <p>No generation yet.</p>}
      <ol className="generations">
        {[...props.generations].reverse().map((generation) => (
          <li key={generation.number} data-generation={generation.number}>
            <strong>Generation {generation.number}</strong> ·{" "}
            {generation.state === "running" ? "running" : `body ${generation.facts.body.kind}`}
            {generation.state !== "running" &&
              "message" in generation.facts.body &&
              `: ${generation.facts.body.message}`}{" "}
            · {formatCount(generation.tokens ?? 0)} tokens · {formatUsd(generation.costUsd ?? 0)}
            {generation.readMessages.length > 0 && ` · read messages ${generation.readMessages.join(", ")}`}
            <div>
              {generation.facts.gates.map((gate) => (
                <span
                  className="verdict"
                  key={gate.gateId}
                  data-gate={gate.gateId}
                  data-verdict={gate.verdict}
                >
                  {gate.gateId}: <strong>{gate.verdict}</strong>
                  {gate.cause !== undefined && ` (${gate.cause})`}
                  {gate.blockerIds.length > 0 && ` · blockers ${gate.blockerIds.join(", ")}`}
                  {gate.summary !== "" && <span className="muted"> · {gate.summary}</span>}
                </span>
              ))}
            </div>
            {generation.layers.length > 0 && (
              <p className="muted">
                layers:{" "}
                {generation.layers
                  .map(
                    (layer) =>
                      `${layer.codonId}${layer.attempt === undefined ? "" : ` attempt ${layer.attempt}`} ${layer.codon} (stream ${layer.stream})`,
                  )
                  .join(", ")}
              </p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
