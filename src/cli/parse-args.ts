import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { resolvePositionals } from "../hank/load.ts";
import { type PathsFromArgs, type RawOptions, readCliOptions, serverOptions } from "./cli-options.ts";
import { FLAGS } from "./flags.ts";
import { inlineConflict, takeInlineInput } from "./inline-input/inline-args.ts";
import type { AttachOptions, ParsedArgs } from "./parsed-args.ts";
import { parseSubcommand, SUBCOMMANDS } from "./rollback/parse-rollback-args.ts";
import { scanArgv } from "./scan-argv.ts";

/**
 * Parses the user's arguments (argv without the node binary and script); paths are resolved against
 * `cwd`. Never throws for user mistakes: every one comes back as a message in the reference runtime's
 * words.
 */
export function parseArgs(argv: readonly string[], cwd: string): ParsedArgs {
  const [first, ...rest] = argv;
  if (first === "loops") return { ok: true, command: { kind: "loops", argv: rest }, warnings: [] };
  if (first === "daemon")
    return { ok: true, command: { kind: "loops", argv: ["daemon", ...rest] }, warnings: [] };
  if (first === "pack") return { ok: true, command: { kind: "pack", argv: rest }, warnings: [] };
  if (first !== undefined && SUBCOMMANDS.includes(first)) return parseSubcommand(first, rest, cwd, parseArgs);
  const scan = scanArgv(argv);
  if (!scan.ok) return { ok: false, message: scan.message, warnings: [] };
  const { warnings } = scan;
  const parsed = runCommander(scan.args);
  if (typeof parsed === "string") return { ok: false, message: parsed, warnings };
  const { raw, positionals } = parsed;
  if (raw.help === true) return { ok: true, command: { kind: "help" }, warnings };
  if (raw.version === true) return { ok: true, command: { kind: "version" }, warnings };
  if (raw.attach === true) return attachCommand(raw, positionals, cwd, warnings);
  if (raw.init === true) return { ok: true, command: { kind: "init" }, warnings };
  if (raw.cleanup === true) return cleanupCommand(raw, positionals, cwd, warnings);
  for (const [key, action] of [
    ["dietJournal", "diet"],
    ["restoreJournal", "restore"],
  ] as const) {
    const execution = raw[key];
    if (typeof execution !== "string") continue;
    return {
      ok: true,
      command: { kind: "journal-care", action, execution: resolve(cwd, execution) },
      warnings,
    };
  }
  if (positionals[0] === "pack") {
    return {
      ok: false,
      message:
        "'pack' is a command: write it first (hankweave pack [hank] [options]). A data directory named pack is written ./pack.",
      warnings,
    };
  }
  const inline = takeInlineInput(positionals, raw);
  if (typeof inline === "string") return { ok: false, message: inline, warnings };
  const paths = pathsFrom(inline.positionals, inline.raw, cwd);
  if (typeof paths === "string") return { ok: false, message: paths, warnings };
  const conflict = inlineConflict(inline.input, paths.dataPath);
  if (conflict !== undefined) return { ok: false, message: conflict, warnings };
  const read = readCliOptions(inline.raw, paths, cwd, inline.input);
  if (!read.ok) return { ok: false, message: read.message, warnings };
  if (isBare(raw, positionals) && !existsSync(join(cwd, "hank.json"))) {
    return { ok: true, command: { kind: "welcome" }, warnings };
  }
  if (typeof raw.replay === "string" && raw.validate !== true) {
    if (typeof raw.execution === "string") {
      return { ok: false, message: "Error: --replay and --execution cannot be used together.", warnings };
    }
    const recording = resolve(cwd, raw.replay);
    return { ok: true, command: { kind: "replay", recording, options: read.options }, warnings };
  }
  const kind = raw.validate === true ? "validate" : "run";
  return { ok: true, command: { kind, options: read.options }, warnings };
}

interface CommanderResult {
  readonly raw: RawOptions;
  readonly positionals: readonly string[];
}

/** Runs commander over canonical arguments; its own output is silenced and its exits are values. */
function runCommander(args: readonly string[]): CommanderResult | string {
  const program = new Command("hankweave")
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .helpOption(false)
    .allowExcessArguments(true)
    .argument("[paths...]");
  for (const flag of FLAGS) {
    if (flag.pending !== undefined || flag.deprecatedFor !== undefined) continue;
    const spelling = flag.kind === "value" ? `${flag.long} <${flag.valueName ?? "value"}>` : flag.long;
    program.addOption(new Option(spelling, flag.description));
  }
  try {
    program.parse([...args], { from: "user" });
  } catch (caught) {
    // The scan has already rejected every malformed flag; what reaches here is commander's own wording.
    if (caught instanceof CommanderError) return caught.message.replace(/^error: /, "");
    throw caught;
  }
  return { raw: program.opts(), positionals: program.args };
}

/** Merges positionals with `--config` / `--data`; each path may be given one way only. */
function pathsFrom(positionals: readonly string[], raw: RawOptions, cwd: string): PathsFromArgs | string {
  const resolved = resolvePositionals(positionals, cwd, typeof raw.config === "string");
  if (!resolved.ok) return resolved.message;
  const config = typeof raw.config === "string" ? raw.config : undefined;
  const data = typeof raw.data === "string" ? raw.data : undefined;
  let hankPath = resolved.hank;
  let dataPath = resolved.data;
  if (config !== undefined) {
    if (resolved.hankFrom === "argument" && positionals.length > 1) {
      return `The hank is given twice: '${positionals[0] ?? ""}' and --config '${config}'. Use one of them.`;
    }
    // With --config, a lone positional can only be the data source.
    if (resolved.hankFrom === "argument") dataPath = resolve(cwd, positionals[0] ?? "");
    hankPath = config === "-" || REMOTE.test(config) ? config : resolve(cwd, config);
  }
  if (data !== undefined) {
    if (dataPath !== undefined) {
      return `The data source is given twice: '${dataPath}' and --data '${data}'. Use one of them.`;
    }
    dataPath = resolve(cwd, data);
  }
  return {
    hankPath,
    hankFrom: config === undefined ? resolved.hankFrom : "argument",
    ...(dataPath === undefined ? {} : { dataPath }),
  };
}

/** Hank locations that are not local paths: remote repositories. */
const REMOTE = /^(?:https?:\/\/|git@|git\+)/;

/**
 * `--attach [execution | port]`: the one positional is a port when it is a number, an execution
 * directory otherwise; `-p` and `-e` say the same. The port wins over the execution's lock.
 */
function attachCommand(
  raw: RawOptions,
  positionals: readonly string[],
  cwd: string,
  warnings: readonly string[],
): ParsedArgs {
  if (positionals.length > 1) {
    return { ok: false, message: "--attach takes one target: an execution directory or a port.", warnings };
  }
  const server = serverOptions(raw);
  if (typeof server === "string") return { ok: false, message: server, warnings };
  const target = positionals[0];
  const targetPort = target !== undefined && /^\d{1,5}$/.test(target) ? Number(target) : undefined;
  const execution =
    typeof raw.execution === "string" ? raw.execution : targetPort === undefined ? target : undefined;
  const port = server.port ?? targetPort;
  const options: AttachOptions = {
    ...(port !== undefined && { port }),
    ...(execution !== undefined && { execution: resolve(cwd, execution) }),
    ...(server.host !== undefined && { host: server.host }),
    ...(server.token !== undefined && { token: server.token }),
  };
  return { ok: true, command: { kind: "attach", options }, warnings };
}

/**
 * Flags that say what to do; without one of them and without a positional the invocation is bare
 * (`-p`, `-y`, `-n`, `-m` alone stay bare, as in the reference). A bare call in a directory without
 * hank.json prints the welcome; with one it runs that hank.
 */
const PURPOSEFUL = [
  "config",
  "data",
  "execution",
  "input",
  "validate",
  "cleanup",
  "headless",
  "replay",
  "dietJournal",
  "restoreJournal",
] as const;

function isBare(raw: RawOptions, positionals: readonly string[]): boolean {
  return positionals.length === 0 && PURPOSEFUL.every((key) => raw[key] === undefined);
}

/** `--cleanup [-e <execution>] [-y]`: takes no positional. */
function cleanupCommand(
  raw: RawOptions,
  positionals: readonly string[],
  cwd: string,
  warnings: readonly string[],
): ParsedArgs {
  if (positionals.length > 0) {
    return { ok: false, message: "--cleanup takes no positional; name one execution with -e.", warnings };
  }
  const execution = typeof raw.execution === "string" ? resolve(cwd, raw.execution) : undefined;
  const options = { yes: raw.yes === true, ...(execution !== undefined && { execution }) };
  return { ok: true, command: { kind: "cleanup", options }, warnings };
}
