#!/usr/bin/env node
// The `hankweave` binary: wires the process to runCli and nothing else.
import * as nodeModule from "node:module";
import { endDescendants } from "../runner/end-descendants.ts";
import { fsFaultMessage } from "../util/fs-fault.ts";
import { runCli } from "./run-cli.ts";
import { readPackageVersion } from "./version.ts";

// On Node 22.1 and later, V8 keeps the compiled code of the chunks each command loads on demand in
// Node's on-disk compile cache, so the next start skips their compilation (NODE_DISABLE_COMPILE_CACHE=1
// turns it off). Node 20 has no such cache: the call is absent there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const output = (stream: NodeJS.WriteStream) => ({
  write: (text: string) => {
    stream.write(text);
  },
  isTTY: stream.isTTY === true,
  columns: stream.isTTY === true ? stream.columns : undefined,
});

// A closed pipe (`hankweave ... | head`) must not crash a run: progress is a courtesy, the journal is
// the record. Write errors on the standard streams are dropped.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

// The first SIGINT/SIGTERM/SIGHUP is a user shutdown (SIGHUP: the terminal was closed; the agent runs
// in a process group of its own, which the hangup does not reach, so it must be stopped like this): the run is cancelled, the agent's process group is
// stopped (SIGTERM, then SIGKILL after a grace period), the run ends `aborted`, the lock is released,
// and the exit code is 0. A second one forces: every process this one started is killed at once, so
// the run winds down and journals its end without waiting out the grace period; should that itself
// hang, the watchdog exits with 130 (the lock, left behind, is judged stale by the next start).
const FORCE_WATCHDOG_MS = 10_000;
const cancel = new AbortController();
const onSignal = (signal: NodeJS.Signals): void => {
  if (cancel.signal.aborted) {
    const ended = endDescendants(process.pid);
    process.stderr.write(`\n! ${signal} again: forcing the shutdown (${ended} process(es) killed)\n`);
    setTimeout(() => process.exit(130), FORCE_WATCHDOG_MS).unref();
    return;
  }
  process.stderr.write(`\n! ${signal}: stopping the run (press again to force)\n`);
  cancel.abort(signal);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);
process.on("SIGHUP", onSignal);

// A filesystem fault no command turned into a message of its own (a read-only disk under a rollback,
// `--cleanup` or `--diet-journal`) still ends with one line naming the path, the cause and the fix.
process.exitCode = await runCli(process.argv.slice(2), {
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
}).catch((error: unknown) => {
  const message = fsFaultMessage(error);
  if (message === undefined) throw error;
  process.stderr.write(`✗ ${message}\n`);
  return 1;
});
