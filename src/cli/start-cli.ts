import { fsFaultMessage } from "../util/fs-fault.ts";
import { runCli } from "./run-cli.ts";
import { readPackageVersion } from "./version.ts";

/** What the process that starts the CLI wants to hear about. */
export interface StartHooks {
  /** See `CliIo.startupDone`. */
  readonly startupDone?: () => void;
}

const output = (stream: NodeJS.WriteStream) => ({
  write: (text: string) => {
    stream.write(text);
  },
  isTTY: stream.isTTY === true,
  columns: stream.isTTY === true ? stream.columns : undefined,
});

/**
 * The `hankweave` process: wires this process (its arguments, streams and signals) to runCli and
 * resolves to the exit code. Call it once per process: it installs the signal handlers.
 */
export async function startCli(hooks: StartHooks = {}): Promise<number> {
  // A closed pipe (`hankweave ... | head`) must not crash a run: progress is a courtesy, the journal is
  // the record. Write errors on the standard streams are dropped.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  const cancel = cancelOnSignals();
  // A filesystem fault no command turned into a message of its own (a read-only disk under a rollback,
  // `--cleanup` or `--diet-journal`) still ends with one line naming the path, the cause and the fix.
  return runCli(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    stdout: output(process.stdout),
    stderr: output(process.stderr),
    signal: cancel.signal,
    runtime: {
      version: readPackageVersion(),
      platform: process.platform,
      arch: process.arch,
      nodeVersion: process.version,
    },
    ...(hooks.startupDone !== undefined && { startupDone: hooks.startupDone }),
  }).catch((error: unknown) => {
    const message = fsFaultMessage(error);
    if (message === undefined) throw error;
    process.stderr.write(`✗ ${message}\n`);
    return 1;
  });
}

// The first SIGINT/SIGTERM/SIGHUP is a user shutdown (SIGHUP: the terminal was closed; the agent runs
// in a process group of its own, which the hangup does not reach, so it must be stopped like this): the run is cancelled, the agent's process group is
// stopped (SIGTERM, then SIGKILL after a grace period), the run ends `aborted`, the lock is released,
// and the exit code is 0. A second one forces: every process this one started is killed at once, so
// the run winds down and journals its end without waiting out the grace period; should that itself
// hang, the watchdog exits with 130 (the lock, left behind, is judged stale by the next start).
const FORCE_WATCHDOG_MS = 10_000;

function cancelOnSignals(): AbortController {
  const cancel = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (cancel.signal.aborted) {
      setTimeout(() => process.exit(130), FORCE_WATCHDOG_MS).unref();
      void forceShutdown(signal);
      return;
    }
    process.stderr.write(`\n! ${signal}: stopping the run (press again to force)\n`);
    cancel.abort(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  return cancel;
}

/**
 * Kills every process this one started. Imported here, not at the top: the process table reads `ps`
 * through child_process, whose loading (with net and the streams) every start would otherwise pay.
 */
async function forceShutdown(signal: NodeJS.Signals): Promise<void> {
  const { endDescendants } = await import("../runner/end-descendants.ts");
  const ended = endDescendants(process.pid);
  process.stderr.write(`\n! ${signal} again: forcing the shutdown (${ended} process(es) killed)\n`);
}
