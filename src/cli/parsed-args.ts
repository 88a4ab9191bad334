import type { CleanupOptions } from "./cleanup/cleanup-command.ts";
import type { CliOptions } from "./cli-options.ts";
import type { SubcommandCommand } from "./rollback/subcommand-command.ts";

// The parser's result type, apart from the parsers: the main parser (parse-args.ts) and the
// subcommand parser (rollback/parse-rollback-args.ts) both return it, and neither imports the other.

/** `--attach`: where the run to watch is served. Without a port or an execution, port 7777. */
export interface AttachOptions {
  readonly port?: number;
  /** An execution directory; its runtime lock names the port. */
  readonly execution?: string;
  readonly host?: string;
  readonly token?: string;
}

/** What the command line asks for. Only the commands that exist in this version appear here. */
export type CliCommand =
  | { readonly kind: "help" }
  | { readonly kind: "attach"; readonly options: AttachOptions }
  | { readonly kind: "version" }
  /** `--init`: scaffold a starter hank in the cwd. */
  | { readonly kind: "init" }
  /** Nothing to do: no hank named and none in the cwd; print the welcome. */
  | { readonly kind: "welcome" }
  /** `--cleanup`: list (dry run) or, with -y, remove executions. */
  | { readonly kind: "cleanup"; readonly options: CleanupOptions }
  /** `--replay <execution>`: a run answered from a recording. */
  | { readonly kind: "replay"; readonly recording: string; readonly options: CliOptions }
  /** `--diet-journal <exec>` / `--restore-journal <exec>`. */
  | { readonly kind: "journal-care"; readonly action: "diet" | "restore"; readonly execution: string }
  | { readonly kind: "validate"; readonly options: CliOptions }
  | { readonly kind: "run"; readonly options: CliOptions }
  /** `hankweave loops <verb> ...`: parsed by the loops command itself (src/cli/loops/). */
  | { readonly kind: "loops"; readonly argv: readonly string[] }
  /** `hankweave pack ...`: parsed by the pack command itself (src/cli/pack/), whose usage errors exit 2. */
  | { readonly kind: "pack"; readonly argv: readonly string[] }
  | SubcommandCommand;

/** A parse never throws for a user mistake: it is `ok: false` with the message to print. */
export type ParsedArgs =
  | { readonly ok: true; readonly command: CliCommand; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly warnings: readonly string[] };
