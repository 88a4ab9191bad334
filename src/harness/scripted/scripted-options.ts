import type { HarnessClock } from "../harness-clock.ts";

/** What the caller supplies; the default (real clock, random ids) is composed at the edge. */
export interface ScriptedHarnessOptions {
  readonly clock: HarnessClock;
  /** A fresh unique id: session ids and tool-use ids. */
  newId(): string;
  /** Where sessions are kept across restarts (a JSONL log); in memory only when absent. */
  readonly sessionFile?: string;
}
