import type { EventListener } from "../../engine/index.ts";
import type { JournaledEvent, RunState } from "../../journal/index.ts";
import { findCodon } from "../../journal/index.ts";

/** Where progress lines go (stderr), and whether to colour them. */
export interface ProgressOutput {
  write(text: string): void;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function dollars(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** One readable line per event worth a human's attention; everything else stays in the journal. */
export function progressLine(event: JournaledEvent, state: RunState): string | undefined {
  switch (event.type) {
    case "codon.started": {
      const attempt =
        event.data.attempt !== undefined && event.data.attempt > 1 ? ` (attempt ${event.data.attempt})` : "";
      return `> ${event.data.codonId}: ${event.data.codonName}${attempt}`;
    }
    case "codon.completed": {
      const d = event.data;
      const head = `${d.codonId} ${seconds(d.duration)} ${dollars(d.cost)}`;
      if (d.success) {
        const budget = d.budgetExceeded ? ` (budget reached: ${d.budgetExceeded.currency})` : "";
        return `✓ ${head}${budget}`;
      }
      const ignored = d.failureIgnored ? " (ignored)" : "";
      return `✗ ${head} failed${ignored}: ${d.failureReason?.message ?? "unknown failure"}`;
    }
    case "loop.iteration.completed": {
      const d = event.data;
      const end = d.isFinal ? `, loop ended${d.terminationReason ? ` (${d.terminationReason})` : ""}` : "";
      return `+ loop ${d.loopId} iteration ${d.iteration} done in ${seconds(d.durationMs)} ${dollars(d.costUsd)}${end}`;
    }
    case "codon.extended":
      return `+ ${event.data.codonId} extended (${event.data.extensionNumber})`;
    case "info":
      return `  ${event.data.message}`;
    case "error":
      return `! ${event.data.message}`;
    case "rig.setup.failed":
      return `! rig setup of ${event.data.codonId} failed (${event.data.failureType})${event.data.ignored ? ", ignored" : ""}`;
    case "state.transition":
      return runTransitionLine(event, state);
    default:
      return undefined;
  }
}

function runTransitionLine(
  event: Extract<JournaledEvent, { type: "state.transition" }>,
  state: RunState,
): string | undefined {
  const { transitionType } = event.data;
  if (transitionType === "RunStarted") return `> run ${event.data.runId ?? ""} started`;
  if (transitionType === "RunCompleted" || transitionType === "RunFailed") {
    const completed = state.codons.filter((c) => c.status === "completed").length;
    const aborted = event.data.transition.data.reason === "aborted";
    const verdict =
      transitionType === "RunCompleted" ? "✓ Run completed" : aborted ? "✗ Run aborted" : "✗ Run failed";
    return `${verdict}: ${completed} codon(s) completed, ${dollars(state.totals.cost)}`;
  }
  if (transitionType === "RunCrashed")
    return `! an earlier run (${event.data.runId ?? "?"}) crashed; continuing it`;
  return undefined;
}

export function progressPrinter(output: ProgressOutput): EventListener {
  return (event, state) => {
    const line = progressLine(event, state);
    if (line !== undefined) output.write(`${line}\n`);
  };
}

/** The closing lines after a run: where the work is and how to pick it up again. */
export function closingLines(state: RunState, executionDir: string, agentRoot: string): string {
  const failed = state.codons.find((c) => c.status === "failed" && !c.failureIgnored);
  const lines = [`  Workspace: ${agentRoot}`, `  Resume:    hankweave --execution ${executionDir}`];
  if (failed !== undefined) {
    const record = findCodon(state, failed.id);
    lines.unshift(
      `  Failed codon: ${failed.id}${record?.failedDuring ? ` (during ${record.failedDuring})` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
