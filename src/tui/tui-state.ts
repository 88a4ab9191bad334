import { type DataOf, findCodon, type JournaledEvent } from "../journal/index.ts";
import { RunViewFold } from "../journal/run-view.ts";
import type { ServerFrame } from "../server/protocol-client.ts";
import { dollars, seconds, toolSummary } from "./text.ts";
import { type ActivityLine, appendLog, pushActivity, type ServerInfo, type TuiState } from "./tui-model.ts";

export type { ServerFrame };

/** The state after one frame from the server, which arrived at `now`. Pure. */
export function reduceFrame(state: TuiState, frame: ServerFrame, now: number): TuiState {
  return reduceFrames(state, [frame], now);
}

/**
 * The state after a batch of frames. The fields read from the run view (counts, totals, rollback
 * targets: each a walk over the codons) are read once for the batch, not once per event, so replaying
 * a long history costs in proportion to its events.
 */
export function reduceFrames(state: TuiState, frames: readonly ServerFrame[], now: number): TuiState {
  let next = state;
  let moved = false;
  for (const frame of frames) {
    const after = applyFrame(next, frame, now);
    moved ||= after !== next && frame.kind === "event";
    next = after;
  }
  return moved ? fromRunView(next) : next;
}

function applyFrame(state: TuiState, frame: ServerFrame, now: number): TuiState {
  if (frame.kind === "event") {
    if (frame.event.seq <= state.lastSeq) return state;
    state.run.apply(frame.event);
    return { ...applyEvent(state, frame.event), lastSeq: frame.event.seq, lastEventAt: now };
  }
  if (frame.kind === "view") {
    // History paging: the run's figures start from the view; the page's events follow as events.
    if (frame.view === undefined || frame.view.seq <= state.lastSeq) return state;
    return fromRunView({ ...state, run: RunViewFold.restore(frame.view), lastSeq: frame.view.seq });
  }
  switch (frame.type) {
    case "server.ready":
      return { ...state, server: serverInfo(frame.data) };
    case "error":
      return appendLog(state, `! ${String(frame.data.message ?? "error")}`, "fail");
    case "info":
      return appendLog(state, `  ${String(frame.data.message ?? "")}`, "info");
    default:
      return state;
  }
}

/** The server closed the connection: the run is over for this client. */
export function connectionClosed(state: TuiState): TuiState {
  return { ...state, connection: "closed", phase: "ended", parked: undefined };
}

/** The fields every face computes the same way, read from the run view. */
function fromRunView(state: TuiState): TuiState {
  const view = state.run.view();
  const { activity, ending, counts } = view;
  const { totals } = view.state;
  return {
    ...state,
    running: activity.running,
    runStartedAt: activity.runStartedAt,
    parked: ending === undefined ? activity.parked?.message : undefined,
    budget: view.budget,
    outcome: ending === undefined ? undefined : { kind: ending.outcome, durationMs: ending.durationMs },
    totals: {
      ...counts,
      costUsd: totals.cost,
      costSource: view.costSource,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
    },
    rollbackTargets: view.state.codons.filter((c) => c.status === "completed").map((c) => c.id),
  };
}

function applyEvent(state: TuiState, event: JournaledEvent): TuiState {
  switch (event.type) {
    case "state.transition":
      return applyTransition(state, event.data);
    case "codon.started":
      return { ...state, activity: [], phase: "model" };
    case "codon.completed":
      return codonCompleted(state, event.data);
    case "assistant.action":
      return assistantAction(state, event.data);
    case "tool.result":
      return {
        ...state,
        phase: "model",
        activity: state.activity.map((line) =>
          line.toolUseId === event.data.toolUseId ? { ...line, ok: !event.data.isError } : line,
        ),
      };
    case "rig.output":
      return {
        ...pushActivity(state, { kind: "rig", text: event.data.line }),
        lastRigLine: event.data.line,
        phase: "rig",
      };
    case "rig.setup.failed":
      return appendLog(
        state,
        `! rig setup of ${event.data.codonId} failed (${event.data.failureType})${event.data.ignored ? ", ignored" : ""}`,
        "warn",
      );
    case "loop.iteration.completed":
      return loopIteration(state, event.data);
    case "server.idle":
      return state.run.view().activity.parked !== undefined ? { ...state, phase: "parked" } : state;
    case "rollback.completed":
      return appendLog(
        state,
        `+ rolled back to ${event.data.codonId} (${event.data.checkpointType})`,
        "info",
      );
    case "error":
      return event.data.fatal ? state : appendLog(state, `! ${event.data.message}`, "warn");
    case "info":
      return appendLog(state, `  ${event.data.message}`, "muted");
    case "run.command":
      return event.data.phase === "refused"
        ? appendLog(state, `! ${event.data.command}: ${event.data.message}`, "warn")
        : state;
    default:
      return state;
  }
}

type TransitionData = DataOf<"state.transition">;

function applyTransition(state: TuiState, data: TransitionData): TuiState {
  switch (data.transitionType) {
    case "RunStarted":
      return appendLog({ ...state, phase: "between" }, `> run ${data.runId ?? ""} started`, "muted");
    case "RunCompleted":
    case "RunFailed":
    case "RunCrashed":
      return { ...state, activity: [], phase: "ended" };
    case "CodonTransitioned": {
      const status = data.transition.data.status;
      if (status === "preparing") return { ...state, phase: "rig" };
      if (status === "completing-sentinels") return { ...state, phase: "sentinels" };
      if (status === "skipped" && data.codonId !== undefined) {
        return appendLog(state, `- ${data.codonId} skipped`, "muted");
      }
      return state;
    }
    default:
      return state;
  }
}

function codonCompleted(state: TuiState, data: DataOf<"codon.completed">): TuiState {
  const took = seconds(data.duration);
  const cost = dollars(data.cost);
  const base = { ...state, activity: [], phase: "between" as const };
  if (data.success) {
    const budget = data.budgetExceeded ? ` (budget reached: ${data.budgetExceeded.currency})` : "";
    const record = findCodon(state.run.view().state, data.codonId);
    const name = record?.name != null && record.name !== data.codonId ? ` ${record.name}` : "";
    return appendLog(base, `✓ ${data.codonId}${name}  ${took}  ${cost}${budget}`, "ok");
  }
  if (data.endReasons?.codon === "aborted" || data.exitStatus.type === "killed") {
    return appendLog(base, `✗ ${data.codonId}  ${took}  stopped`, "warn");
  }
  if (data.endReasons?.codon === "interrupted" && data.failureReason === undefined) {
    return appendLog(base, `✗ ${data.codonId}  interrupted (the runtime was killed during it)`, "warn");
  }
  const ignored = data.failureIgnored ? " (ignored)" : "";
  const reason = data.failureReason?.message ?? "unknown failure";
  return appendLog(base, `✗ ${data.codonId}  ${took}  failed${ignored}: ${reason}`, "fail");
}

function assistantAction(state: TuiState, data: DataOf<"assistant.action">): TuiState {
  if (data.action === "tool_use") {
    const line: ActivityLine = {
      kind: "tool",
      text: toolSummary(data.toolName ?? "tool", data.toolInput),
      ...(data.toolUseId !== undefined && { toolUseId: data.toolUseId }),
    };
    return { ...pushActivity(state, line), phase: "tool" };
  }
  const kind = data.action === "thinking" ? "thinking" : "text";
  return { ...pushActivity(state, { kind, text: data.content }), phase: "model" };
}

function loopIteration(state: TuiState, data: DataOf<"loop.iteration.completed">): TuiState {
  const end = data.isFinal
    ? `, loop ended${data.terminationReason ? ` (${data.terminationReason})` : data.endCause ? ` (${data.endCause})` : ""}`
    : "";
  const text = `+ loop ${data.loopId} iteration ${data.iteration} done in ${seconds(data.durationMs)} ${dollars(data.costUsd)}${end}`;
  return appendLog(state, text, "info");
}

function serverInfo(data: Record<string, unknown>): ServerInfo {
  const text = (key: string): string => (typeof data[key] === "string" ? (data[key] as string) : "");
  return {
    executionPath: text("executionPath"),
    agentRootPath: text("agentRootPath"),
    ...(typeof data.outputDirectory === "string" && { outputDirectory: data.outputDirectory }),
    port: typeof data.port === "number" ? data.port : 0,
  };
}
