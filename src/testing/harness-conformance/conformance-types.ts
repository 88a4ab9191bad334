import type { Harness } from "../../harness/harness.ts";
import type { ExitStatus } from "../../journal/index.ts";
import type { SessionDirector } from "./session-director.ts";

/**
 * What a harness supplies to run the conformance suite: its model id, and how to start what it needs
 * (a fake provider server whose script is the director's, an agent CLI's configuration).
 */
export interface ConformanceSetup {
  /** The model id of every codon, as a user would pass it with `-m` (`haiku`, `pi/fake/fake-model`). */
  readonly model: string;
  /**
   * The idle timeout of the stall scenario, in seconds (default 1). It runs from the start of the
   * session, so it must outlast the harness's own start-up (an agent CLI that needs 2.5 s to boot).
   */
  readonly idleTimeoutSeconds?: number;
  /**
   * The `exitStatus` of a session the runtime stopped (idle timeout, budget): how the agent's process
   * ended where the harness runs one it watches (`killed` with the signal), `{type: "none"}` where
   * no agent process exit is observed (the default: in-process SDKs, the scripted agent, Claude Code
   * under its SDK, which ends its own process).
   */
  readonly stoppedExitStatus?: ExitStatus;
  /** The harness talks to a model server, so the conversation each session sent can be checked. */
  readonly modelServer: boolean;
  /**
   * Scenarios this harness cannot pass by construction, with the reason. They still run, reported as
   * `todo` (a failure is shown, not counted), so a fix shows up as a passing todo.
   */
  readonly limitations?: Readonly<Partial<Record<ScenarioName, string>>>;
  /** Starts the harness's fixtures once for the suite; the director decides what the model does. */
  start(director: SessionDirector): Promise<ConformanceTarget>;
}

/** The harness's fixtures, started: a fresh harness per scenario run, and the runs' environment. */
export interface ConformanceTarget {
  /** The runtime environment of every run (fake provider addresses, keys, PATH, HOME). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * A new harness for one run. `stateDir` is an empty directory private to the run, for the
   * harness's own files (Claude Code's config directory, pi's session directory).
   */
  createHarness(stateDir: string): Harness;
  /** Stops the fixtures (the fake server). */
  close(): Promise<void>;
}

export const SCENARIO_NAMES = [
  "write-and-run",
  "continue-previous",
  "faults",
  "context-overflow",
  "idle-timeout",
  "budget-stop",
  "max-tokens",
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];
