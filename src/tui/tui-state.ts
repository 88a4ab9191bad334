import type { DataOf, JournaledEvent } from "../journal/index.ts";
import type { ServerFrame } from "../server/protocol-client.ts";
import { dollars, seconds, toolSummary } from "./text.ts";
import { type ActivityLine, appendLog, pushActivity, type ServerInfo, type TuiState } from "./tui-model.ts";

/** The state after one frame from the server, which arrived at `now`. Pure. */
export function reduceFrame(state: TuiState, frame: ServerFrame, now: number): TuiState {
  if (frame.kind === "event") {
    if (frame.event.seq <= state.lastSeq) return state;
    return { ...applyEvent(state, frame.event), lastSeq: frame.event.seq, lastEventAt: now };
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

function applyEvent(state: TuiState, event: JournaledEvent): TuiState {
  const at = Date.parse(event.timestamp);
  switch (event.type) {
    case "state.transition":
      return applyTransition(state, event.data, at);
    case "codon.started": {
      const { codonId, codonName, attempt } = event.data;
      const running = { id: codonId, name: codonName, attempt: attempt ?? 1, since: at };
      return { ...state, running, activity: [], phase: "model", parked: undefined };
    }
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
    case "token.usage":
      return addUsage(state, event.data);
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
      return state.outcome === undefined ? { ...state, parked: event.data.message, phase: "parked" } : state;
    case "budget.summary":
      return { ...state, budget: event.data };
    case "rollback.completed":
      return appendLog(
        { ...state, rollbackTargets: [], outcome: undefined },
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

function applyTransition(state: TuiState, data: TransitionData, at: number): TuiState {
  switch (data.transitionType) {
    case "RunStarted":
      return appendLog(
        { ...state, runStartedAt: at, outcome: undefined, parked: undefined, phase: "between" },
        `> run ${data.runId ?? ""} started`,
        "muted",
      );
    case "RunCompleted":
    case "RunFailed": {
      const kind =
        data.transitionType === "RunCompleted"
          ? "completed"
          : data.transition.data.reason === "aborted"
            ? "aborted"
            : "failed";
      const outcome = {
        kind,
        durationMs: state.runStartedAt === undefined ? undefined : at - state.runStartedAt,
      } as const;
      return { ...state, outcome, running: undefined, activity: [], parked: undefined, phase: "ended" };
    }
    case "CodonTransitioned": {
      const status = data.transition.data.status;
      if (status === "preparing") return { ...state, phase: "rig" };
      if (status === "completing-sentinels") return { ...state, phase: "sentinels" };
      if (status === "skipped" && data.codonId !== undefined) {
        const totals = { ...state.totals, skipped: state.totals.skipped + 1 };
        return appendLog({ ...state, totals, parked: undefined }, `- ${data.codonId} skipped`, "muted");
      }
      return state;
    }
    default:
      return state;
  }
}

function codonCompleted(state: TuiState, data: DataOf<"codon.completed">): TuiState {
  const running = state.running?.id === data.codonId ? state.running : undefined;
  const took = seconds(data.duration);
  const cost = dollars(data.cost);
  const totals = {
    ...state.totals,
    costUsd: state.totals.costUsd + data.cost,
    completed: state.totals.completed + (data.success ? 1 : 0),
    failed: state.totals.failed + (data.success || data.failureIgnored === true ? 0 : 1),
  };
  const base = { ...state, running: undefined, activity: [], totals, phase: "between" as const };
  if (data.success) {
    const budget = data.budgetExceeded ? ` (budget reached: ${data.budgetExceeded.currency})` : "";
    const name = running !== undefined && running.name !== data.codonId ? ` ${running.name}` : "";
    const targets = [...state.rollbackTargets.filter((id) => id !== data.codonId), data.codonId];
    return appendLog(
      { ...base, rollbackTargets: targets },
      `✓ ${data.codonId}${name}  ${took}  ${cost}${budget}`,
      "ok",
    );
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

function addUsage(state: TuiState, data: DataOf<"token.usage">): TuiState {
  return {
    ...state,
    totals: {
      ...state.totals,
      inputTokens: state.totals.inputTokens + data.inputTokens,
      outputTokens: state.totals.outputTokens + data.outputTokens,
    },
  };
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
