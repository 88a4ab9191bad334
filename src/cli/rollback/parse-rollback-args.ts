import { resolve } from "node:path";
// The types module alone: parsing must not load the rollback machinery (`--help` stays light).
import { isRollbackCheckpointType } from "../../events/checkpoints.ts";
import type { CliOptions } from "../cli-options.ts";
import { findFlag } from "../flags.ts";
import type { ParsedArgs } from "../parsed-args.ts";
import { checkpointsHelp, rollbackHelp } from "./rollback-help.ts";
import type { RollbackOptions } from "./subcommand-command.ts";

export const SUBCOMMANDS: readonly string[] = ["rollback", "checkpoints", "view", "ls"];

const ROLLBACK_USAGE =
  "Usage: hankweave rollback <target> -e <execution> [--type <type>] [--restart], or hankweave rollback --abandon -e <execution>";
const CHECKPOINTS_USAGE = "Usage: hankweave checkpoints -e <execution> [--json]";

/**
 * Parses the arguments after a subcommand name. `parseRun` is the main parser (`parseArgs`), passed in
 * so that this module does not import it back: the rollback's run options go through it unchanged.
 */
export function parseSubcommand(
  name: string,
  args: readonly string[],
  cwd: string,
  parseRun: (argv: readonly string[], cwd: string) => ParsedArgs,
): ParsedArgs {
  if (name === "view") return parseViewArgs(args, cwd);
  if (name === "ls") return parseLsArgs(args);
  return name === "checkpoints" ? parseCheckpointsArgs(args, cwd) : parseRollbackArgs(args, cwd, parseRun);
}

interface RollbackScan {
  readonly target?: string;
  readonly type?: string;
  readonly restart: boolean;
  readonly abandon: boolean;
  readonly rest: readonly string[];
}

function parseRollbackArgs(
  args: readonly string[],
  cwd: string,
  parseRun: (argv: readonly string[], cwd: string) => ParsedArgs,
): ParsedArgs {
  const scan = scanRollbackArgs(args);
  if (typeof scan === "string") return fail(scan);
  // Nothing for the run parser (no -e, no flag): it would read that as a bare `hankweave` (the welcome).
  if (scan.rest.length === 0) return fail(missingExecution(scan));
  const parsed = parseRun(scan.rest, cwd);
  if (!parsed.ok) return parsed;
  const { command, warnings } = parsed;
  if (command.kind === "help")
    return { ok: true, command: { kind: "subcommand-help", text: rollbackHelp() }, warnings };
  if (command.kind !== "run")
    return { ok: false, message: `rollback does not take that option. ${ROLLBACK_USAGE}`, warnings };
  const options = command.options;
  const checked = checkRollback(scan, options);
  if (typeof checked === "string") return { ok: false, message: checked, warnings };
  return { ok: true, command: { kind: "rollback", options: checked }, warnings };
}

const ABANDON_ALONE = "--abandon gives up an interrupted rollback: it takes no target, --type or --restart.";

/** What is missing when the execution is: the target first (it comes first on the line), then `-e`. */
function missingExecution(scan: RollbackScan): string {
  if (scan.abandon && (scan.target !== undefined || scan.type !== undefined || scan.restart))
    return ABANDON_ALONE;
  if (scan.abandon)
    return `rollback --abandon needs the execution directory: -e <execution>. ${ROLLBACK_USAGE}`;
  if (scan.target === undefined) return `Missing rollback target. ${ROLLBACK_USAGE}`;
  return `rollback needs the execution directory: -e <execution>. ${ROLLBACK_USAGE}`;
}

function checkRollback(scan: RollbackScan, run: CliOptions): RollbackOptions | string {
  const { execution } = run;
  if (scan.abandon) {
    if (scan.target !== undefined || scan.type !== undefined || scan.restart) {
      return ABANDON_ALONE;
    }
    if (execution === undefined) return missingExecution(scan);
    return { target: "", abandon: true, restart: false, run: { ...run, execution } };
  }
  if (scan.target === undefined || execution === undefined) return missingExecution(scan);
  if (scan.type !== undefined && !isRollbackCheckpointType(scan.type)) {
    return `Invalid --type value: '${scan.type}'. Expected one of start, end, rig-setup, completed, error, skipped.`;
  }
  if (scan.type !== undefined && scan.target === "last-success") {
    return "--type names a checkpoint of a codon; it does not go with last-success.";
  }
  return {
    target: scan.target,
    ...(scan.type !== undefined && { type: scan.type }),
    restart: scan.restart,
    run: { ...run, execution },
  };
}

/** Takes out the target and the rollback's own flags; every other token goes to the run parser. */
function scanRollbackArgs(args: readonly string[]): RollbackScan | string {
  let target: string | undefined;
  let type: string | undefined;
  let restart = false;
  let abandon = false;
  const rest: string[] = [];
  const positional = (token: string): string | undefined => {
    if (target !== undefined) return `Too many arguments for rollback: '${token}'. ${ROLLBACK_USAGE}`;
    target = token;
    return undefined;
  };
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? "";
    if (token === "--") {
      for (const extra of args.slice(index + 1)) {
        const problem = positional(extra);
        if (problem !== undefined) return problem;
      }
      break;
    }
    if (token === "--restart") restart = true;
    else if (token === "--abandon") abandon = true;
    else if (token.startsWith("--restart=") || token.startsWith("--abandon="))
      return `Flag '${token.split("=")[0] ?? token}' does not take a value.`;
    else if (token === "--type" || token.startsWith("--type=")) {
      const value = token === "--type" ? args[++index] : token.slice("--type=".length);
      if (value === undefined || value === "" || value.startsWith("-"))
        return "Flag '--type' requires a value.";
      type = value;
    } else if (token.startsWith("-") && token !== "-") {
      rest.push(token);
      if (takesSeparateValue(token) && args[index + 1] !== undefined) rest.push(args[++index] ?? "");
    } else {
      const problem = positional(token);
      if (problem !== undefined) return problem;
    }
  }
  return {
    ...(target !== undefined && { target }),
    ...(type !== undefined && { type }),
    restart,
    abandon,
    rest,
  };
}

function takesSeparateValue(token: string): boolean {
  return !token.includes("=") && findFlag(token)?.kind === "value";
}

function parseCheckpointsArgs(args: readonly string[], cwd: string): ParsedArgs {
  let execution: string | undefined;
  let json = false;
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? "";
    if (token === "-h" || token === "--help") {
      return { ok: true, command: { kind: "subcommand-help", text: checkpointsHelp() }, warnings: [] };
    }
    if (token === "--json") json = true;
    else if (token === "-e" || token === "--execution") {
      const value = args[++index];
      if (value === undefined || value === "" || value.startsWith("-"))
        return fail(`Flag '${token}' requires a value.`);
      execution = value;
    } else if (token.startsWith("--execution=")) execution = token.slice("--execution=".length);
    else return fail(`Unknown argument '${token}' for checkpoints. ${CHECKPOINTS_USAGE}`);
  }
  if (execution === undefined || execution === "") {
    return fail(`checkpoints needs the execution directory: -e <execution>. ${CHECKPOINTS_USAGE}`);
  }
  return {
    ok: true,
    command: { kind: "checkpoints", options: { execution: resolve(cwd, execution), json } },
    warnings: [],
  };
}

const LS_USAGE = "Usage: hankweave ls [--json]";

function parseLsArgs(args: readonly string[]): ParsedArgs {
  let json = false;
  for (const token of args) {
    if (token === "-h" || token === "--help") {
      const text = `${LS_USAGE}\n\nLists the executions (HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR, default ~/.hankweave-executions)\nwith their state, last activity, cost, hank and directory. --json prints one object.\n`;
      return { ok: true, command: { kind: "subcommand-help", text }, warnings: [] };
    }
    if (token === "--json") json = true;
    else return fail(`Unknown argument '${token}' for ls. ${LS_USAGE}`);
  }
  return { ok: true, command: { kind: "ls", options: { json } }, warnings: [] };
}

const VIEW_USAGE = "Usage: hankweave view <execution> [--port <n>] [--open]";

function viewHelp(): string {
  return `${VIEW_USAGE}

Serves an execution as it stands, read-only: its web page (/ui/) from its journal, and on a
terminal its final TUI screen. Nothing runs; every client is read-only. Ctrl-C stops serving.

  --port <n>   the server's port (default: any free one)
  --open       open the web page in the desktop's browser
`;
}

function parseViewArgs(args: readonly string[], cwd: string): ParsedArgs {
  let execution: string | undefined;
  let port: number | undefined;
  let open = false;
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? "";
    if (token === "-h" || token === "--help") {
      return { ok: true, command: { kind: "subcommand-help", text: viewHelp() }, warnings: [] };
    }
    if (token === "--open") open = true;
    else if (token === "--port") {
      const value = Number(args[++index]);
      if (!Number.isInteger(value) || value < 0 || value > 65535)
        return fail(`Flag '--port' needs a port number (0 to 65535). ${VIEW_USAGE}`);
      port = value;
    } else if (token === "-e" || token === "--execution") execution = args[++index];
    else if (!token.startsWith("-") && execution === undefined) execution = token;
    else return fail(`Unknown argument '${token}' for view. ${VIEW_USAGE}`);
  }
  if (execution === undefined || execution === "")
    return fail(`view needs an execution directory. ${VIEW_USAGE}`);
  const options = { execution: resolve(cwd, execution), open, ...(port !== undefined && { port }) };
  return { ok: true, command: { kind: "view", options }, warnings: [] };
}

function fail(message: string): ParsedArgs {
  return { ok: false, message, warnings: [] };
}
