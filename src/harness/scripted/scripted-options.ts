import type { HarnessClock } from "../harness-clock.ts";

/** What the caller may supply; every field has a default, so `createScriptedHarness()` runs as is. */
export interface ScriptedHarnessOptions {
  /** Default: the system clock. Tests pass a fake clock so `sleep` directives never wait. */
  readonly clock?: HarnessClock;
  /** A fresh unique id: session ids and tool-use ids. Default: `randomUUID`. */
  readonly newId?: () => string;
  /** Where sessions are kept across restarts (a JSONL log); in memory only when absent. */
  readonly sessionFile?: string;
  /** Asked before every tool that writes; false stops the turn as aborted (see `HarnessContext.mayWrite`). */
  readonly mayWrite?: () => boolean;
}

/** The options with their defaults applied: what a scripted session runs with. */
export interface ResolvedScriptedOptions {
  readonly clock: HarnessClock;
  newId(): string;
  mayWrite(): boolean;
}
