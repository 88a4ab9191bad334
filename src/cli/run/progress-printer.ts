import type { EventListener } from "../../engine/index.ts";
import { redactSecrets } from "../../hank/validate/index.ts";
import type { JournaledEvent, RunState } from "../../journal/index.ts";
import { findCodon } from "../../journal/index.ts";
import { type Clock, systemClock, type TimerHandle } from "../../util/clock.ts";
import { type CostSource, type LastTool, renderHeartbeat, renderRunSummary } from "../render/run-summary.ts";
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

/** What the printer has gathered from the events so far, for the lines that need more than one event. */
interface RunFacts {
  costSource: CostSource;
  lastTool: LastTool | undefined;
  parked: boolean;
  /** Codons during which the data source changed, in order, once each. */
  dataSourceChangedBy: string[];
}

/** One readable line (or block) per event worth a human's attention; everything else stays in the journal. */
export function progressLine(event: JournaledEvent, state: RunState, facts?: RunFacts): string | undefined {
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
      return runTransitionLine(event, state, facts);
    default:
      return undefined;
  }
}

function runTransitionLine(
  event: Extract<JournaledEvent, { type: "state.transition" }>,
  state: RunState,
  facts: RunFacts | undefined,
): string | undefined {
  const costSource = facts?.costSource ?? "none";
  const { transitionType } = event.data;
  if (transitionType === "RunStarted") return `> run ${event.data.runId ?? ""} started`;
  if (transitionType === "RunCompleted" || transitionType === "RunFailed") {
    const aborted = event.data.transition.data.reason === "aborted";
    const verdict = transitionType === "RunCompleted" ? "completed" : aborted ? "aborted" : "failed";
    const elapsedMs = runsElapsedMs(state, Date.parse(event.timestamp));
    const dataSourceChangedBy = facts?.dataSourceChangedBy ?? [];
    return renderRunSummary({ verdict, state, elapsedMs, costSource, dataSourceChangedBy }).join("\n");
  }
  if (transitionType === "RunCrashed")
    return `! an earlier run (${event.data.runId ?? "?"}) crashed; continuing it`;
  return undefined;
}

/** Wall-clock time of the execution's runs, resumed runs included; a run still open counts up to `now`. */
function runsElapsedMs(state: RunState, now: number): number {
  return state.runs.reduce((sum, run) => {
    const end = run.endedAt === null ? now : Date.parse(run.endedAt);
    return sum + Math.max(0, end - Date.parse(run.startedAt));
  }, 0);
}

/** Folds the events the summary and the heartbeat need beyond the run state. */
function observe(facts: RunFacts, event: JournaledEvent, now: number): void {
  if (event.type === "token.usage" && event.data.modelId !== undefined) {
    const simulated = event.data.modelId === "scripted" || event.data.modelId.startsWith("scripted/");
    const source: CostSource = simulated ? "simulated" : "real";
    facts.costSource = facts.costSource === "none" || facts.costSource === source ? source : "mixed";
  } else if (event.type === "assistant.action" && event.data.action === "tool_use") {
    const target = toolTarget(event.data.toolInput);
    facts.lastTool = {
      name: event.data.toolName ?? "tool",
      at: now,
      ...(target !== undefined && { target }),
    };
  } else if (event.type === "error" && event.data.code === "data-source-changed") {
    const codon = event.data.codon ?? "the run";
    if (!facts.dataSourceChangedBy.includes(codon)) facts.dataSourceChangedBy.push(codon);
  } else if (event.type === "server.idle") {
    facts.parked = true;
  } else if (event.type === "codon.started" || event.type === "state.transition") {
    facts.parked = false;
  }
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
  const facts: RunFacts = { costSource: "none", lastTool: undefined, parked: false, dataSourceChangedBy: [] };
  let latest: RunState | undefined;
  let startedAt: number | undefined;
  let lastLineAt = 0;
  let timer: TimerHandle | undefined;
  let ended = false;
  const arm = (ms: number): void => {
    timer = clock.setTimeout(onQuiet, ms);
  };
  const onQuiet = (): void => {
    timer = undefined;
    if (ended || latest === undefined || startedAt === undefined) return;
    const now = clock.now();
    const due = lastLineAt + quietMs;
    if (now < due) {
      arm(due - now);
      return;
    }
    output.write(
      `${renderHeartbeat({ state: latest, now, startedAt, lastTool: facts.lastTool, parked: facts.parked })}\n`,
    );
    lastLineAt = now;
    arm(quietMs);
  };
  return (event, state) => {
    if (ended) return;
    const now = clock.now();
    latest = state;
    observe(facts, event, now);
    if (startedAt === undefined) {
      startedAt = now;
      lastLineAt = now;
      arm(quietMs);
    }
    const line = progressLine(event, state, facts);
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
  const failed = state.codons.find((c) => c.status === "failed" && !c.failureIgnored);
  const outputs = places.outputDir ?? "not copied (outputFiles are copied with -o <dir>)";
  const lines = [`  Workspace: ${places.agentRoot}`, `  Outputs:   ${outputs}`];
  const current = state.runs.at(-1);
  if (current?.status !== "completed")
    lines.push(`  Resume:    ${shellCommand(["hankweave", "--execution", places.executionDir])}`);
  if (failed !== undefined) {
    const record = findCodon(state, failed.id);
    // A codon a cancel stopped did not fail: it says so.
    const label = record?.endReasons?.codon === "aborted" ? "Stopped codon" : "Failed codon";
    lines.unshift(
      `  ${label}: ${failed.id}${record?.failedDuring ? ` (during ${record.failedDuring})` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
