import type { JournaledEvent } from "../../events/index.ts";
import { END_REASONS, type EndReason } from "../../events/payloads-common.ts";
import type { HarnessEvent, SessionOutcome } from "../../harness/index.ts";
import { type RecordedSession, type Recording, sessionKey } from "../../harness/replay/index.ts";
import { readAll } from "../../journal/index.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import { type RecordedCheckpoint, readRecordedCheckpoints } from "./recorded-files.ts";

/** A loaded recording, with the runtime codon ids it ran in order, or why it cannot be replayed. */
export type LoadedRecording =
  | {
      readonly ok: true;
      readonly recording: Recording;
      readonly codonIds: readonly string[];
      readonly runId: string;
    }
  | { readonly ok: false; readonly message: string };

interface OpenSession {
  readonly codonId: string;
  readonly attempt: number;
  readonly events: HarnessEvent[];
}

/**
 * Reads the newest run of a recorded execution: its journal gives each session's events and outcome,
 * its checkpoints give what each session left in the workspace. The journal is the truth here; the
 * checkpoint of a codon attempt is the next `completed` or `error` checkpoint of that codon.
 */
export async function loadRecording(executionDir: string): Promise<LoadedRecording> {
  const layout = executionLayout(executionDir);
  const read = await readAll(layout.eventsPath).catch((caught: unknown) => String(caught));
  if (typeof read === "string")
    return { ok: false, message: `Replay journal not readable: ${layout.eventsPath}: ${read}` };
  const runStart = read.events.findLastIndex((event) => transitionOf(event) === "RunStarted");
  const runId = runStart === -1 ? undefined : runIdOf(read.events[runStart]);
  if (runId === undefined)
    return { ok: false, message: `No runs found in the replay journal: ${layout.eventsPath}` };
  const sessions = sessionsOf(read.events.slice(runStart));
  let checkpoints: RecordedCheckpoint[];
  try {
    checkpoints = readRecordedCheckpoints(layout.checkpointGitDir, runId);
  } catch (caught) {
    return {
      ok: false,
      message: `Replay checkpoints not readable in ${layout.checkpointGitDir}: ${String(caught)}`,
    };
  }
  const withFiles = attachFiles(sessions, checkpoints);
  const recording: Recording = {
    source: executionDir,
    sessions: new Map(withFiles.map((session) => [sessionKey(session.codonId, session.attempt), session])),
  };
  return { ok: true, recording, codonIds: [...new Set(withFiles.map((session) => session.codonId))], runId };
}

function sessionsOf(events: readonly JournaledEvent[]): Omit<RecordedSession, "files">[] {
  const done: Omit<RecordedSession, "files">[] = [];
  let open: OpenSession | undefined;
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    if (event.type === "codon.started") {
      const attempt = typeof data.attempt === "number" ? data.attempt : 1;
      open = { codonId: String(data.codonId), attempt, events: [] };
      if (typeof data.sessionId === "string")
        open.events.push({ type: "session.started", sessionId: data.sessionId });
      continue;
    }
    if (open === undefined) continue;
    if (event.type === "codon.completed") {
      done.push({
        codonId: open.codonId,
        attempt: open.attempt,
        events: open.events,
        outcome: outcomeOf(data, open.events),
      });
      open = undefined;
      continue;
    }
    const harnessEvent = harnessEventOf(event.type, data);
    if (harnessEvent !== undefined) open.events.push(harnessEvent);
  }
  return done;
}

/** The harness event a journaled agent event was made from (the inverse of the engine's mapping). */
function harnessEventOf(type: string, data: Record<string, unknown>): HarnessEvent | undefined {
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : "");
  switch (type) {
    case "assistant.action":
      if (data.action === "message") return { type: "assistant.text", text: text("content") };
      if (data.action === "thinking") return { type: "assistant.thinking", text: text("content") };
      return {
        type: "tool.use",
        toolUseId: text("toolUseId"),
        toolName: text("toolName"),
        input: (data.toolInput ?? {}) as Record<string, unknown>,
      };
    case "tool.result":
      return {
        type: "tool.result",
        toolUseId: text("toolUseId"),
        toolName: text("toolName"),
        result: text("result"),
        isError: data.isError === true,
        executionTimeMs: typeof data.executionTimeMs === "number" ? data.executionTimeMs : 0,
      };
    case "file.updated": {
      const source = data.source as { toolUseId?: unknown } | undefined;
      const action = data.action === "created" || data.action === "deleted" ? data.action : "modified";
      return {
        type: "file.changed",
        path: text("path"),
        action,
        ...(typeof source?.toolUseId === "string" && { toolUseId: source.toolUseId }),
      };
    }
    case "token.usage":
      return {
        type: "usage",
        usage: {
          inputTokens: numberOf(data.inputTokens),
          outputTokens: numberOf(data.outputTokens),
          cacheCreationTokens: numberOf(data.cacheCreationTokens),
          cacheReadTokens: numberOf(data.cacheReadTokens),
          costUsd: typeof data.totalCost === "number" ? data.totalCost : null,
        },
      };
    default:
      return undefined;
  }
}

/** How the recorded attempt ended, as a session outcome the engine turns back into the same codon.completed. */
function outcomeOf(data: Record<string, unknown>, events: readonly HarnessEvent[]): SessionOutcome {
  const totals = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 };
  for (const event of events) {
    if (event.type !== "usage") continue;
    totals.inputTokens += event.usage.inputTokens;
    totals.outputTokens += event.usage.outputTokens;
    totals.cacheCreationTokens += event.usage.cacheCreationTokens;
    totals.cacheReadTokens += event.usage.cacheReadTokens;
  }
  totals.costUsd = typeof data.cost === "number" ? data.cost : 0;
  const reasons = (data.endReasons ?? {}) as Record<string, unknown>;
  const layers = {
    stream: endReason(reasons.stream),
    toolBatch: endReason(reasons.toolBatch),
    turn: endReason(reasons.turn),
  };
  const result = data.result as { text?: string } | undefined;
  if (data.success === true) {
    return {
      kind: "completed",
      layers,
      totals,
      ...(result?.text !== undefined && { resultText: result.text }),
    };
  }
  if (reasons.turn === "max-tokens")
    return { kind: "max-tokens", message: "Recorded max-tokens stop", layers, totals };
  const reason = (data.failureReason as SessionOutcomeReason | undefined) ?? {
    type: "unknown",
    retriable: false,
    message: "The recorded attempt failed",
  };
  return { kind: "failed", reason, sessionEstablished: true, layers, totals };
}

type SessionOutcomeReason = Extract<SessionOutcome, { kind: "failed" }>["reason"];

function attachFiles(
  sessions: readonly Omit<RecordedSession, "files">[],
  checkpoints: readonly RecordedCheckpoint[],
): RecordedSession[] {
  const ends = checkpoints.filter((c) => c.checkpointType === "completed" || c.checkpointType === "error");
  const used = new Set<RecordedCheckpoint>();
  return sessions.map((session) => {
    const end = ends.find((c) => c.codonId === session.codonId && !used.has(c));
    if (end !== undefined) used.add(end);
    return { ...session, files: end?.files ?? [] };
  });
}

function transitionOf(event: JournaledEvent): string | undefined {
  return event.type === "state.transition"
    ? (event.data as { transitionType?: string }).transitionType
    : undefined;
}

function runIdOf(event: JournaledEvent | undefined): string | undefined {
  const runId = (event?.data as { runId?: unknown } | undefined)?.runId;
  return typeof runId === "string" ? runId : undefined;
}

/** A recorded layer's end reason; `completed` when the recording has none (written before end reasons). */
function endReason(value: unknown): EndReason {
  return END_REASONS.find((reason) => reason === value) ?? "completed";
}

function numberOf(value: unknown): number {
  return typeof value === "number" ? value : 0;
}
