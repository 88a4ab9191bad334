// The types module alone: parsing must not load the rollback machinery (`--help` stays light).
import type { RollbackCheckpointType } from "../../events/checkpoints.ts";
import type { CliOptions } from "../cli-options.ts";

// What the subcommands take, apart from their parser and their commands: parsed-args.ts, the parser
// and the command modules all name these types without importing one another.

/**
 * `hankweave rollback <target> -e <execution> [--type <type>] [--restart] [run options]`, or
 * `hankweave rollback --abandon -e <execution>` (give up an interrupted rollback).
 */
export interface RollbackOptions {
  /** As typed: a checkpoint id or prefix, a codon id, or `last-success`; empty with `abandon`. */
  readonly target: string;
  /** Abandon the interrupted rollback instead of rolling back. */
  readonly abandon?: boolean;
  /** With it, `target` is a codon id. */
  readonly type?: RollbackCheckpointType;
  /** Run the continuation at once (`rollback.completed.autoRestart`). */
  readonly restart: boolean;
  /** The run options (for the restart); `execution` is always set. */
  readonly run: CliOptions & { readonly execution: string };
}

/** `hankweave checkpoints -e <execution> [--json]`. */
export interface CheckpointsOptions {
  readonly execution: string;
  readonly json: boolean;
}

/** `hankweave view <execution> [--port N] [--open]`: a finished execution, served read-only. */
export interface ViewOptions {
  readonly execution: string;
  readonly port?: number;
  readonly open: boolean;
}

/** `hankweave ls [--json]`: the executions with their hank, data, state, last activity and cost. */
export interface LsOptions {
  readonly json: boolean;
}

export type SubcommandCommand =
  | { readonly kind: "ls"; readonly options: LsOptions }
  | { readonly kind: "rollback"; readonly options: RollbackOptions }
  | { readonly kind: "view"; readonly options: ViewOptions }
  | { readonly kind: "checkpoints"; readonly options: CheckpointsOptions }
  | { readonly kind: "subcommand-help"; readonly text: string };
