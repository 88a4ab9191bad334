import type { OutputFileGroup } from "../../hank/schema/index.ts";
import type { ProcessClock } from "../process/process-clock.ts";

/**
 * The events output copying emits, as plain `{type, data}` objects: the workspace layer may not
 * import the journal, so this mirrors its `info` payload; the engine stamps id and timestamp.
 */
export type OutputEvent = { readonly type: "info"; readonly data: { readonly message: string } };

export interface CopyOutputFilesInput {
  /** Runtime codon id (`edit#0` inside loops), used in the narration. */
  readonly codonId: string;
  readonly groups: readonly OutputFileGroup[];
  readonly agentRoot: string;
  /** Absolute (the CLI resolves `-o` against its cwd); created when missing. */
  readonly outputDir: string;
  /** `--overwrite-output`: replace existing files instead of renaming the new copy. */
  readonly overwrite: boolean;
  /** The complete environment of beforeCopy commands (the codon's, see buildAgentEnv). */
  readonly env: Readonly<Record<string, string>>;
  /** Stops a beforeCopy command after this long; no limit when absent. */
  readonly commandTimeoutMs?: number;
}

export interface CopyOutputFilesDeps {
  /** Time of renamed names (`name_<n>_<unixSeconds>.ext`) and of the command timers. */
  readonly clock: ProcessClock;
  /** Aborting kills a running beforeCopy command's group and stops the copying. */
  readonly signal: AbortSignal;
  readonly emit: (event: OutputEvent) => void;
  readonly killGraceMs?: number;
}

/** `from` is agentRoot-relative, `to` outputDir-relative; both `/`-separated. */
export interface CopiedOutput {
  readonly from: string;
  readonly to: string;
}

/** A copy that took a new name because `intended` was taken (outputDir-relative). */
export interface RenamedOutput {
  readonly intended: string;
  readonly to: string;
}

/** Reported, not fatal: a glob that matched nothing, an entry a glob named that is never copied. */
export interface OutputProblem {
  readonly kind: "no-match" | "skipped";
  readonly groupIndex: number;
  /** The glob (no-match) or the agentRoot-relative entry (skipped). */
  readonly subject: string;
  readonly message: string;
}

/** Why copying stopped; the engine fails the run with `message` (exit code 1). */
export interface OutputFailure {
  readonly kind: "invalid-glob" | "before-copy" | "copy";
  /** Index of the group in `groups`; -1 for the output directory itself. */
  readonly groupIndex: number;
  readonly message: string;
  readonly exitCode?: number;
  readonly outputTail?: readonly string[];
}

export interface CopyOutputFilesResult {
  /** Every group's commands succeeded and every matched file was copied. */
  readonly ok: boolean;
  readonly aborted: boolean;
  /** In order, including the renamed ones. */
  readonly copied: readonly CopiedOutput[];
  readonly renamed: readonly RenamedOutput[];
  readonly problems: readonly OutputProblem[];
  /** Set when `ok` is false and not aborted. */
  readonly failure: OutputFailure | null;
}
