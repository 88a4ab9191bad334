import type { CodonInput } from "../../src/hank/schema/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";

/** A codon's sentinel entry as a hank file holds it (validated when the test hank is). */
export type SentinelEntryInput = NonNullable<CodonInput["sentinels"]>[number];

/** Shared by the sentinel end-to-end tests. */

/** A sentinel entry on the scripted model, immediate on `file.updated`; `config` and `settings` override. */
export function sentinel(
  config: Record<string, unknown> = {},
  settings?: Record<string, unknown>,
): SentinelEntryInput {
  const entry = {
    sentinelConfig: {
      id: "watch",
      name: "Watch",
      model: "scripted",
      trigger: { type: "event", on: ["file.updated"] },
      execution: { strategy: "immediate" },
      userPromptText: "@say saw <%= it.events.map((e) => e.data.path ?? e.type).join(', ') %>",
      ...config,
    },
    ...(settings !== undefined && { settings }),
  };
  return entry as SentinelEntryInput;
}

/** The events of a run, as `type` or `type:detail` for the ones a test follows. */
export function timeline(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((event): string[] => {
    switch (event.type) {
      case "state.transition":
        return event.data.transitionType === "CodonTransitioned"
          ? [`status:${String(event.data.transition.data.status)}`]
          : [];
      case "sentinel.output":
        return [
          `output:${typeof event.data.content === "string" ? event.data.content : JSON.stringify(event.data.content)}`,
        ];
      case "sentinel.unloaded":
        return [`unloaded:${event.data.reason}`];
      case "sentinel.error":
        return [`error:${event.data.errorType}`];
      case "codon.completed":
      case "sentinel.loaded":
      case "sentinel.triggered":
      case "loop.iteration.completed":
        return [event.type];
      default:
        return [];
    }
  });
}
