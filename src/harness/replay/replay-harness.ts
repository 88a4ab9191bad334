import { chmod, mkdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ALL_COMPLETED } from "../end-reason.ts";
import type { Harness, HarnessSession, SessionOutcome, SessionRequest } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import { type RecordedFileChange, type Recording, sessionKey } from "./recording.ts";

/**
 * The replay harness: answers every session from a recording instead of a model. The session writes
 * what the recorded session left in the workspace, then emits the recorded events (text, tool calls
 * and results, usage and cost, file changes) and ends as the recorded session ended. No tool runs and
 * no model is called, so a replay needs no network and no key, and the run's checkpoints get the same
 * trees as the recording's. The harness knows every file a session changes (the recorded checkpoint's
 * diff), so tool calls are declared `reported-files` and every changed file is reported: files the
 * recording did not report (a shell command's) get a report after the recorded events.
 *
 * A session the recording does not have (an exhaustWithPrompt extension, an attempt that never ran)
 * fails permanently with a message naming it.
 */
export function createReplayHarness(recording: Recording): Harness {
  return {
    name: "replay",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) => replaySession(recording, request),
  };
}

function replaySession(recording: Recording, request: SessionRequest): HarnessSession {
  return createSession(async (emit) => {
    const recorded =
      request.extension === 0
        ? recording.sessions.get(sessionKey(request.codonId, request.attempt))
        : undefined;
    if (recorded === undefined) return notRecorded(recording, request);
    if (request.signal.aborted) return aborted(request);
    const applied = await applyFiles(request.cwd, recorded.files);
    const reported = new Set<string>();
    for (const event of recorded.events) {
      if (event.type === "file.changed") reported.add(event.path);
      emit(event.type === "tool.use" ? { ...event, effects: "reported-files" } : event);
    }
    for (const change of applied) if (!reported.has(change.path)) emit({ type: "file.changed", ...change });
    return recorded.outcome;
  });
}

interface AppliedChange {
  readonly path: string;
  readonly action: "created" | "modified" | "deleted";
}

/** Writes the recorded end state of each changed file; returns what it did, for the file reports. */
async function applyFiles(cwd: string, files: readonly RecordedFileChange[]): Promise<AppliedChange[]> {
  const applied: AppliedChange[] = [];
  for (const file of files) {
    const target = join(cwd, ...file.path.split("/"));
    const existed = (await stat(target).catch(() => undefined)) !== undefined;
    if (file.content === undefined) {
      await rm(target, { force: true });
      applied.push({ path: file.path, action: "deleted" });
      continue;
    }
    applied.push({ path: file.path, action: existed ? "modified" : "created" });
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { force: true });
    await writeFile(target, file.content);
    await chmod(target, file.executable === true ? 0o755 : 0o644);
  }
  return applied;
}

const ZERO_TOTALS = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd: 0,
};

function notRecorded(recording: Recording, request: SessionRequest): SessionOutcome {
  const what =
    request.extension === 0
      ? `attempt ${request.attempt} of codon ${request.codonId}`
      : `extension ${request.extension} of codon ${request.codonId}`;
  return {
    kind: "failed",
    reason: {
      type: "unknown",
      retriable: false,
      message: `The recording ${recording.source} has no ${what}`,
    },
    sessionEstablished: false,
    layers: ALL_COMPLETED,
    totals: ZERO_TOTALS,
  };
}

function aborted(request: SessionRequest): SessionOutcome {
  const reason =
    request.signal.reason instanceof Error ? request.signal.reason.message : String(request.signal.reason);
  return { kind: "aborted", reason, layers: ALL_COMPLETED, totals: ZERO_TOTALS };
}
