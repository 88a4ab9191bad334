/** The conversation state the scripted agent keeps for one session id. */
export interface ScriptedSessionState {
  readonly id: string;
  /** Tokens the conversation holds: the sum of input+output over its turns, reset by a compaction. */
  contextTokens: number;
}

/**
 * The sessions of one scripted harness instance (never module state), so `resumeSessionId` can
 * continue a conversation and its context. Sessions live as long as the harness instance.
 */
export interface SessionStore {
  create(id: string): ScriptedSessionState;
  get(id: string): ScriptedSessionState | undefined;
}

export function createSessionStore(): SessionStore {
  const sessions = new Map<string, ScriptedSessionState>();
  return {
    create(id) {
      if (sessions.has(id))
        throw new Error(`Scripted session id ${id} was issued twice; newId() must be unique`);
      const state: ScriptedSessionState = { id, contextTokens: 0 };
      sessions.set(id, state);
      return state;
    },
    get: (id) => sessions.get(id),
  };
}
