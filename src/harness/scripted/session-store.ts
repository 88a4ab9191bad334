import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
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
 */
export interface SessionStore {
  create(id: string): ScriptedSessionState;
  get(id: string): ScriptedSessionState | undefined;
  /** Persists the sessions when the store has a file; called after every session. */
  save(): void;
}

function load(file: string | undefined): Map<string, ScriptedSessionState> {
  const sessions = new Map<string, ScriptedSessionState>();
  if (file === undefined) return sessions;
  try {
    const raw: unknown = JSON.parse(readFileSync(file, "utf8"));
    const entries = typeof raw === "object" && raw !== null ? Object.entries(raw) : [];
    for (const [id, tokens] of entries) {
      if (typeof tokens === "number" && Number.isFinite(tokens))
        sessions.set(id, { id, contextTokens: tokens });
    }
  } catch {
    // No file yet, or a torn one from a crash: start without the lost sessions (resuming them fails clearly).
  }
  return sessions;
}

export function createSessionStore(file?: string): SessionStore {
  const sessions = load(file);
  return {
    create(id) {
      if (sessions.has(id))
        throw new Error(`Scripted session id ${id} was issued twice; newId() must be unique`);
      const state: ScriptedSessionState = { id, contextTokens: 0 };
      sessions.set(id, state);
      return state;
    },
    get: (id) => sessions.get(id),
    save() {
      if (file === undefined) return;
      const data = Object.fromEntries([...sessions].map(([id, state]) => [id, state.contextTokens]));
      mkdirSync(dirname(file), { recursive: true });
      const temp = `${file}.tmp`;
      writeFileSync(temp, JSON.stringify(data));
      renameSync(temp, file);
    },
  };
}
