/** Time as the scripted agent sees it; injected so tests drive it and never sleep. */
export interface ScriptedClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the caller supplies; the default (real clock, random ids) is composed at the edge. */
export interface ScriptedHarnessOptions {
  readonly clock: ScriptedClock;
  /** A fresh unique id: session ids and tool-use ids. */
  newId(): string;
  /** Where sessions are kept across restarts (JSON); in memory only when absent. */
  readonly sessionFile?: string;
}
