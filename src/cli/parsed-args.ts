import type { CliOptions } from "./cli-options.ts";
import type { SubcommandCommand } from "./rollback/subcommand-command.ts";

// The parser's result type, apart from the parsers: the main parser (parse-args.ts) and the
// subcommand parser (rollback/parse-rollback-args.ts) both return it, and neither imports the other.

/** What the command line asks for. Only the commands that exist in this version appear here. */
export type CliCommand =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "validate"; readonly options: CliOptions }
  | { readonly kind: "run"; readonly options: CliOptions }
  | SubcommandCommand;

/** A parse never throws for a user mistake: it is `ok: false` with the message to print. */
export type ParsedArgs =
  | { readonly ok: true; readonly command: CliCommand; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly warnings: readonly string[] };
