import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

/** The conversation state the scripted agent keeps for one session id. */
export interface ScriptedSessionState {
  readonly id: string;
  /** Tokens the conversation holds: the sum of input+output over its turns, reset by a compaction. */
  contextTokens: number;
}

/**
 * The sessions of one scripted harness instance (never module state), so `resumeSessionId` can
 * continue a conversation and its context. With a file, sessions also survive a restart of the
 * runtime (a resumed execution continues `continue-previous` codons like real agents do).
 *
 * The file is an append-only log, one JSON line `{"id","contextTokens"}` per saved session, the last
 * line of an id winning: saving costs one short append however many sessions a long loop has made.
 */
export interface SessionStore {
  create(id: string): ScriptedSessionState;
  get(id: string): ScriptedSessionState | undefined;
  /** Persists one session's state when the store has a file; called after every session. */
  save(session: ScriptedSessionState): void;
}

/** Replays the log. A line that does not parse (a torn last append after a crash) is skipped. */
function load(file: string | undefined): Map<string, ScriptedSessionState> {
  const sessions = new Map<string, ScriptedSessionState>();
  if (file === undefined) return sessions;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return sessions; // No file yet: no sessions to resume.
  }
  for (const line of text.split("\n")) {
    const record = parseLine(line);
    if (record !== undefined) sessions.set(record.id, record);
  }
  return sessions;
}

function parseLine(line: string): ScriptedSessionState | undefined {
  if (line.trim() === "") return undefined;
  try {
    const raw: unknown = JSON.parse(line);
    if (typeof raw !== "object" || raw === null || !("id" in raw) || !("contextTokens" in raw))
      return undefined;
    const { id, contextTokens } = raw;
    if (typeof id !== "string" || typeof contextTokens !== "number" || !Number.isFinite(contextTokens))
      return undefined;
    return { id, contextTokens };
  } catch {
    return undefined;
  }
}

export function createSessionStore(file?: string): SessionStore {
  const sessions = load(file);
  let directoryMade = false;
  return {
    create(id) {
      if (sessions.has(id))
        throw new Error(`Scripted session id ${id} was issued twice; newId() must be unique`);
      const state: ScriptedSessionState = { id, contextTokens: 0 };
      sessions.set(id, state);
      return state;
    },
    get: (id) => sessions.get(id),
    save(session) {
      if (file === undefined) return;
      if (!directoryMade) mkdirSync(dirname(file), { recursive: true });
      directoryMade = true;
      // Start on a fresh line, so an append after a torn one is read whole.
      appendFileSync(file, `\n${JSON.stringify({ id: session.id, contextTokens: session.contextTokens })}\n`);
    },
  };
}
