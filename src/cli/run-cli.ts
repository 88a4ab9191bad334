import { rmSync } from "node:fs";
import { needsResolution } from "../bundle/location-kind.ts";
import type { CliIo } from "./cli-io.ts";
import type { CliOptions } from "./cli-options.ts";
import { helpText } from "./help-text.ts";
import { parseArgs } from "./parse-args.ts";
import { colorWanted, renderWidth } from "./render/style.ts";

/**
 * The composition root: parses the arguments, runs the command and returns the process exit code.
 * Command modules are imported only when their command runs, so `--help` and `--version` stay light.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, io.cwd);
  for (const warning of parsed.warnings) io.stderr.write(`${warning}\n`);
  if (!parsed.ok) {
    io.stderr.write(`${parsed.message}\n`);
    return 1;
  }
  const { command } = parsed;
  switch (command.kind) {
    case "help":
      io.stdout.write(helpText(io.runtime.version));
      return 0;
    case "version":
      io.stdout.write(`${io.runtime.version}\n`);
      return 0;
    case "validate":
      return validate(command.options, io);
    case "init": {
      const { initHank } = await import("./init/init-command.ts");
      const outcome = initHank(io.cwd);
      io.stdout.write(outcome.stdout);
      io.stderr.write(outcome.stderr);
      return outcome.exitCode;
    }
    case "cleanup": {
      const { runCleanup } = await import("./cleanup/cleanup-command.ts");
      return runCleanup(command.options, io);
    }
    case "replay": {
      const { runReplayCommand } = await import("./replay/replay-command.ts");
      const columns = io.stderr.columns ?? columnsFromEnv(io.env);
      const render = { color: colorWanted(io.stderr.isTTY, io.env), width: renderWidth(columns) };
      const signal = io.signal ?? new AbortController().signal;
      return runReplayCommand(command.recording, command.options, { ...io, argv, signal }, render);
    }
    case "journal-care": {
      const { dietJournal, restoreJournal } = await import("./journal-care/journal-diet.ts");
      const outcome =
        command.action === "diet" ? dietJournal(command.execution) : restoreJournal(command.execution);
      io.stdout.write(outcome.stdout);
      io.stderr.write(outcome.stderr);
      return outcome.exitCode;
    }
    case "welcome": {
      const { welcomeText } = await import("./init/welcome.ts");
      io.stdout.write(welcomeText(io.runtime.version));
      return 0;
    }
    case "run":
      return run(command.options, argv, io);
    case "subcommand-help":
      io.stdout.write(command.text);
      return 0;
    case "rollback": {
      const { runRollbackCommand } = await import("./rollback/rollback-command.ts");
      const render = {
        color: colorWanted(io.stderr.isTTY, io.env),
        width: renderWidth(io.stderr.columns ?? columnsFromEnv(io.env)),
      };
      return runRollbackCommand(
        command.options,
        { ...io, argv, signal: io.signal ?? new AbortController().signal },
        render,
      );
    }
    case "pack": {
      const { runPackCommand } = await import("./pack/pack-command.ts");
      return runPackCommand(command.argv, io);
    }
    case "loops": {
      const { runLoopsCommand } = await import("./loops/loops-command.ts");
      return runLoopsCommand(command.argv, io);
    }
    case "attach": {
      const { attachCommand } = await import("../tui/index.ts");
      const columns = io.stdout.columns ?? columnsFromEnv(io.env);
      return attachCommand({
        ...command.options,
        color: colorWanted(io.stdout.isTTY, io.env),
        width: renderWidth(columns),
        stdout: process.stdout,
        stdin: process.stdin,
        stderr: io.stderr,
      });
    }
    case "checkpoints": {
      const { runCheckpointsCommand } = await import("./rollback/checkpoints-command.ts");
      return runCheckpointsCommand(command.options, io);
    }
    case "ls": {
      const { runLsCommand } = await import("./ls/ls-command.ts");
      return runLsCommand(command.options, io);
    }
    case "view": {
      const { runViewCommand } = await import("./view/view-command.ts");
      const columns = io.stdout.columns ?? columnsFromEnv(io.env);
      return runViewCommand(command.options, io, {
        color: colorWanted(io.stdout.isTTY, io.env),
        width: renderWidth(columns),
      });
    }
  }
}

async function validate(options: CliOptions, io: CliIo): Promise<number> {
  const { runValidate } = await import("./validate-command.ts");
  const columns = io.stdout.columns ?? columnsFromEnv(io.env);
  const render = { color: colorWanted(io.stdout.isTTY, io.env), width: renderWidth(columns) };
  // A bundle is looked at in a temporary directory: validation leaves the cache as it is.
  const located = await withLocalHank(options, io, true);
  if (located === undefined) return 1;
  try {
    const outcome = await runValidate(located, { cwd: io.cwd, env: io.env, runtime: io.runtime, render });
    io.stdout.write(outcome.stdout);
    io.startupDone?.();
    return outcome.exitCode;
  } finally {
    if (located.scratchDir !== undefined) rmSync(located.scratchDir, { recursive: true, force: true });
  }
}

async function run(options: CliOptions, argv: readonly string[], io: CliIo): Promise<number> {
  const { runHankCommand } = await import("./run/run-command.ts");
  const { optionsFromExecution } = await import("./rollback/options-from-execution.ts");
  const columns = io.stderr.columns ?? columnsFromEnv(io.env);
  const render = { color: colorWanted(io.stderr.isTTY, io.env), width: renderWidth(columns) };
  const signal = io.signal ?? new AbortController().signal;
  const located = await withLocalHank(options, io);
  if (located === undefined) return 1;
  const withData = await withInlineData(located, io);
  if (typeof withData === "string") {
    io.stderr.write(`✗ ${withData}\n`);
    return 1;
  }
  return runHankCommand(optionsFromExecution(withData), { ...io, argv, signal }, render);
}

/**
 * A bundle (`x.hank`, `x.tar.zst`), a bundle URL or a git location becomes a verified local directory
 * in the cache before the hank loads (with `scratch`, a bundle goes to a temporary `scratchDir` the
 * caller removes); undefined (after printing why) when it cannot.
 */
async function withLocalHank(
  options: CliOptions,
  io: CliIo,
  scratch = false,
): Promise<(CliOptions & { readonly scratchDir?: string }) | undefined> {
  if (!needsResolution(options.hankPath)) return options;
  const { resolveHankLocation } = await import("../bundle/index.ts");
  const context = { env: io.env, version: io.runtime.version, scratch };
  const resolved = await resolveHankLocation(options.hankPath, context);
  if (!resolved.ok) {
    io.stderr.write(`${resolved.message}\n`);
    return undefined;
  }
  for (const note of resolved.notes) io.stderr.write(`${note}\n`);
  return {
    ...options,
    hankPath: resolved.hankPath,
    ...(resolved.scratch !== undefined && { scratchDir: resolved.scratch }),
  };
}

/** `-i` / `-`: the data becomes the input's entry in the inputs cache. */
async function withInlineData(options: CliOptions, io: CliIo): Promise<CliOptions | string> {
  if (options.inlineInput === undefined) return options;
  const { materializeInput } = await import("./inline-input/inline-input.ts");
  try {
    const dataPath = await materializeInput(options.inlineInput, io.env, io.stdin ?? process.stdin);
    return { ...options, dataPath };
  } catch (caught) {
    return `Cannot store the inline input: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
}

/** Without a terminal, `COLUMNS` (when a whole number) says how wide the reader's window is. */
function columnsFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = env.COLUMNS;
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}
