import type { JournaledEvent } from "../../src/journal/index.ts";

/** Shared by the engine's end-to-end tests: compact views of a journal for exact assertions. */

/**
 * The codon and loop lifecycle as lines: `started a`, `completed a ok`, `completed a failed`,
 * `iteration L#0`, `final L#1 iteration_limit` (or `final L#0 -` when the loop ended on its budget).
 */
export function lifecycle(events: readonly JournaledEvent[]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    if (event.type === "codon.started") lines.push(`started ${event.data.codonId}`);
    if (event.type === "codon.completed") {
      const how = event.data.success ? "ok" : event.data.failureIgnored ? "ignored" : "failed";
      lines.push(`completed ${event.data.codonId} ${how}`);
    }
    if (event.type === "loop.iteration.completed") {
      const { loopId, iteration, isFinal, terminationReason } = event.data;
      lines.push(
        isFinal
          ? `final ${loopId}#${iteration} ${terminationReason ?? "-"}`
          : `iteration ${loopId}#${iteration}`,
      );
    }
  }
  return lines;
}

/** The messages of the `info` events. */
export function infos(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((event) => (event.type === "info" ? [event.data.message] : []));
}

/** A scripted usage report that spends `cost` dollars and `output` output tokens. */
export function spend(cost: number, output = 50): string {
  return `@usage input=100 output=${output} cost=${cost}`;
}

/** End reasons of a session the engine stopped (budget, cancel) while the agent was mid-turn. */
export const STOPPED = { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "aborted" };
