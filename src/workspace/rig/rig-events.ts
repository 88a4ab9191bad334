/**
 * The events rig setup emits, as plain `{type, data}` objects. The workspace layer may not import
 * the journal, so these mirror its payloads (`src/journal/payloads-agentic.ts` and
 * `payloads-server-state.ts`) field for field; the engine stamps id and timestamp and journals them.
 */

export type RigOutputStream = "stdout" | "stderr";

export interface RigOutputData {
  readonly codonId: string;
  readonly stream: RigOutputStream;
  /** One line, or several joined by "\n" when they were batched by the 1-per-second throttle. */
  readonly line: string;
  /** Index of the rig operation (copy and command operations counted together). */
  readonly commandIndex: number;
}

export interface RigSetupCompletedData {
  readonly codonId: string;
  /** "command" for a rig of one operation, "commands" otherwise. */
  readonly rigType: "command" | "commands";
  /** Number of rig operations, copies included. */
  readonly commandCount: number;
  readonly durationMs: number;
  readonly createdCheckpoint: boolean;
}

export type RigFailureType = "command_failed" | "timeout" | "other";

export interface RigSetupFailedData {
  readonly codonId: string;
  readonly failureType: RigFailureType;
  /** The command's exit code; absent for copies, signals and commands that never started. */
  readonly exitCode?: number;
  readonly commandIndex?: number;
  /** The failure did not stop the setup (allowFailure or --ignore-rig-failures). */
  readonly ignored: boolean;
}

export interface RigInfoData {
  readonly message: string;
}

/** A non-fatal `error` event: an ignored failure, reported as a warning of severity `operation`. */
export interface RigWarningData {
  readonly message: string;
  readonly codon: string;
  readonly fatal: false;
  readonly severity: "operation";
  readonly context: string;
}

export type RigEvent =
  | { readonly type: "rig.output"; readonly data: RigOutputData }
  | { readonly type: "rig.setup.completed"; readonly data: RigSetupCompletedData }
  | { readonly type: "rig.setup.failed"; readonly data: RigSetupFailedData }
  | { readonly type: "info"; readonly data: RigInfoData }
  | { readonly type: "error"; readonly data: RigWarningData };
