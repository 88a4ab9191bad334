import { redactSecrets } from "../../hank/validate/index.ts";
import type { JournaledEvent, RunState } from "../../journal/index.ts";
import { codonEnding } from "../../journal/run-counts.ts";
import { type RunView, RunViewFold } from "../../journal/run-view.ts";
import { codonPositionText, ofTotal } from "../../journal/run-words.ts";
import type { EventListener } from "../../runner/index.ts";
import { type Clock, systemClock, type TimerHandle } from "../../util/clock.ts";
import { type LastTool, renderHeartbeat, renderRunSummary } from "../render/run-summary.ts";
import { shellCommand } from "../shell-quote.ts";

/** Where progress lines go (stderr), and whether to colour them. */
export interface ProgressOutput {
  write(text: string): void;
}

export interface ProgressOptions {
  /** Time for the heartbeat. Default: the system clock, with timers that never keep the process alive. */
  readonly clock?: Clock;
  /** Quiet time after which a heartbeat line is printed. Default 10 s. */
  readonly heartbeatMs?: number;
}

export const HEARTBEAT_MS = 10_000;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function dollars(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** One readable line (or block) per event worth a human's attention; everything else stays in the journal. */
export function progressLine(event: JournaledEvent, view: RunView): string | undefined {
  switch (event.type) {
    case "codon.started": {
      const attempt =
        event.data.attempt !== undefined && event.data.attempt > 1 ? `, attempt ${event.data.attempt}` : "";
      const where = codonPositionText(event.data.codonId, view);
      return `> ${event.data.codonId}: ${event.data.codonName} (${where}${attempt})`;
    }
    case "codon.completed": {
      const d = event.data;
      const head = `${d.codonId} ${seconds(d.duration)} ${dollars(d.cost)}`;
      if (d.success) {
        const budget = d.budgetExceeded ? ` (budget reached: ${d.budgetExceeded.currency})` : "";
        return `✓ ${head}${budget}`;
      }
      // A codon stopped by a cancel or a budget has no failure reason: say so, as the TUI does.
      if (d.endReasons?.codon === "aborted" && d.failureReason === undefined) return `✗ ${head} stopped`;
      // An attempt a crash cut short, journaled by the next start's recovery: it runs again.
      if (d.endReasons?.codon === "interrupted" && d.failureReason === undefined) {
        return `✗ ${d.codonId} interrupted (the runtime was killed during it)`;
      }
      const ignored = d.failureIgnored ? " (ignored)" : "";
      return `✗ ${head} failed${ignored}: ${d.failureReason?.message ?? "unknown failure"}`;
    }
    case "loop.iteration.completed": {
      const d = event.data;
      const end = d.isFinal ? `, loop ended${d.terminationReason ? ` (${d.terminationReason})` : ""}` : "";
      const iteration = ofTotal("iteration", d.iteration + 1, view.planSize?.loops[d.loopId]?.iterations);
      return `+ loop ${d.loopId} ${iteration} done in ${seconds(d.durationMs)} ${dollars(d.costUsd)}${end}`;
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
      return runTransitionLine(event, view);
    default:
      return undefined;
  }
}

function runTransitionLine(
  event: Extract<JournaledEvent, { type: "state.transition" }>,
  view: RunView,
): string | undefined {
  const { transitionType } = event.data;
  if (transitionType === "RunStarted") return `> run ${event.data.runId ?? ""} started`;
  if (transitionType === "RunCrashed")
    return `! an earlier run (${event.data.runId ?? "?"}) crashed; continuing it`;
  const ending = view.ending;
  if (ending === undefined || ending.outcome === "interrupted") return undefined;
  const elapsedMs = runsElapsedMs(view.state, ending.at);
  return renderRunSummary(view, ending.outcome, elapsedMs).join("\n");
}

/** Wall-clock time of the execution's runs, resumed runs included; a run still open counts up to `now`. */
function runsElapsedMs(state: RunState, now: number): number {
  return state.runs.reduce((sum, run) => {
    const end = run.endedAt === null ? now : Date.parse(run.endedAt);
    return sum + Math.max(0, end - Date.parse(run.startedAt));
  }, 0);
}

/** The agent's last tool call, for the heartbeat. */
function lastToolOf(event: JournaledEvent, now: number): LastTool | undefined {
  if (event.type !== "assistant.action" || event.data.action !== "tool_use") return undefined;
  const target = toolTarget(event.data.toolInput);
  return { name: event.data.toolName ?? "tool", at: now, ...(target !== undefined && { target }) };
}

const TARGET_CHARS = 60;

/** The path or command of a tool call, shortened, with any credential in it removed. */
function toolTarget(input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = input?.file_path ?? input?.path ?? input?.command ?? input?.pattern;
  if (typeof value !== "string" || value === "") return undefined;
  const line = redactSecrets(value.split("\n")[0] ?? "");
  return line.length > TARGET_CHARS ? `${line.slice(0, TARGET_CHARS - 1)}…` : line;
}

/**
 * Progress lines for a headless run, on its event stream. After `heartbeatMs` without a printed line
 * it prints a heartbeat (elapsed time, what runs, the agent's last tool) and again after every further
 * quiet spell, until the run ends. The timer is re-armed only when it fires, so events cost nothing.
 */
export function progressPrinter(output: ProgressOutput, options: ProgressOptions = {}): EventListener {
  const clock = options.clock ?? systemClock({ unref: true });
  const quietMs = options.heartbeatMs ?? HEARTBEAT_MS;
  let fold: RunViewFold | undefined;
  let lastTool: LastTool | undefined;
  let startedAt: number | undefined;
  let lastLineAt = 0;
  let timer: TimerHandle | undefined;
  let ended = false;
  const arm = (ms: number): void => {
    timer = clock.setTimeout(onQuiet, ms);
  };
  const onQuiet = (): void => {
    timer = undefined;
    if (ended || fold === undefined || startedAt === undefined) return;
    const now = clock.now();
    const due = lastLineAt + quietMs;
    if (now < due) {
      arm(due - now);
      return;
    }
    const view = fold.view();
    const parked = view.activity.parked !== undefined;
    output.write(`${renderHeartbeat({ state: view.state, now, startedAt, lastTool, parked })}\n`);
    lastLineAt = now;
    arm(quietMs);
  };
  return (event, state) => {
    if (ended) return;
    const now = clock.now();
    // The listener's state is the engine's, live, with this event and the earlier runs in it: the view
    // reads it, and folds only what it adds.
    fold ??= RunViewFold.following(state);
    fold.apply(event);
    lastTool = lastToolOf(event, now) ?? lastTool;
    if (startedAt === undefined) {
      startedAt = now;
      lastLineAt = now;
      arm(quietMs);
    }
    const line = progressLine(event, fold.view());
    if (line !== undefined) {
      output.write(`${line}\n`);
      lastLineAt = now;
    }
    if (isRunEnd(event)) {
      ended = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    }
  };
}

function isRunEnd(event: JournaledEvent): boolean {
  return (
    event.type === "state.transition" &&
    (event.data.transitionType === "RunCompleted" || event.data.transitionType === "RunFailed")
  );
}

/** Where a run's results are, in the closing lines. */
export interface ClosingPlaces {
  readonly executionDir: string;
  readonly agentRoot: string;
  /** `-o`: where outputFiles were copied; absent when none was given. */
  readonly outputDir?: string;
}

/**
 * The closing lines after a run: the failed codon, where the workspace and the outputs are, and how to
 * pick the execution up again (not after a run that completed: there is nothing left to resume).
 */
export function closingLines(state: RunState, places: ClosingPlaces): string {
  const outputs = places.outputDir ?? "not copied (outputFiles are copied with -o <dir>)";
  const lines = [`  Workspace: ${places.agentRoot}`, `  Outputs:   ${outputs}`];
  const current = state.runs.at(-1);
  if (current?.status !== "completed")
    lines.push(`  Resume:    ${shellCommand(["hankweave", "--execution", places.executionDir])}`);
  const unfinished = unfinishedCodonLine(state);
  if (unfinished !== undefined) lines.unshift(unfinished);
  return `${lines.join("\n")}\n`;
}

/** The codon the run stopped at: one that failed, else one a stop or a crash cut short. */
function unfinishedCodonLine(state: RunState): string | undefined {
  const failed = state.codons.find((c) => codonEnding(c) === "failed");
  const cut = state.codons.find((c) => {
    const ending = codonEnding(c);
    return ending === "stopped" || ending === "interrupted";
  });
  const record = failed ?? cut;
  if (record === undefined) return undefined;
  // A codon a cancel or a crash cut short did not fail: it says so.
  const label = record === failed ? "Failed codon" : "Stopped codon";
  return `  ${label}: ${record.id}${record.failedDuring ? ` (during ${record.failedDuring})` : ""}`;
}
