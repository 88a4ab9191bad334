import type { JournaledEvent } from "../../journal/index.ts";
import type { EventListener } from "../../runner/index.ts";

/** One readable line per rollback event (stderr); other events stay in the journal. */
export function rollbackLine(event: JournaledEvent): string | undefined {
  switch (event.type) {
    case "rollback.started": {
      const d = event.data;
      const undone = d.codonsToProcess.length === 0 ? "none" : d.codonsToProcess.join(", ");
      return `> rollback of run ${d.fromRun} to ${d.toCodon} (${d.checkpointType}) at ${d.toCheckpoint.slice(0, 7)}; to run again: ${undone}`;
    }
    case "rollback.progress":
      return `  [${event.data.currentStep}/${event.data.totalSteps}] ${event.data.message}`;
    case "rollback.codonCheckpoint":
      return `  ${event.data.message}`;
    case "rollback.archiveRestore": {
      const d = event.data;
      const failed = d.failedPaths?.map((f) => `${f.path} (${f.error})`).join(", ");
      const restored = d.restoredPaths.length === 0 ? "nothing" : d.restoredPaths.join(", ");
      return `  archived files restored: ${restored}${failed ? `; not restored: ${failed}` : ""}`;
    }
    case "rollback.completed": {
      const d = event.data;
      return `✓ Rolled back to ${d.codonId} (${d.checkpointType}) at ${d.checkpoint.slice(0, 7)}; run ${d.toRun} continues from there`;
    }
    case "error":
      return `! ${event.data.message}`;
    case "state.transition":
      return event.data.transitionType === "RunCrashed"
        ? `! an earlier run (${event.data.runId ?? "?"}) crashed; it is marked crashed`
        : undefined;
    default:
      return undefined;
  }
}

export function rollbackPrinter(output: { write(text: string): void }): EventListener {
  return (event) => {
    const line = rollbackLine(event);
    if (line !== undefined) output.write(`${line}\n`);
  };
}
