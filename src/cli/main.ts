#!/usr/bin/env node
// The `hankweave` binary: wires the process to runCli and nothing else.
import { runCli } from "./run-cli.ts";
import { readPackageVersion } from "./version.ts";

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

// The first SIGINT/SIGTERM cancels the run (the engine records `aborted`); a second one exits at once.
const cancel = new AbortController();
const onSignal = (signal: NodeJS.Signals): void => {
  if (cancel.signal.aborted) process.exit(130);
  process.stderr.write(`\n! ${signal}: stopping the run (press again to exit at once)\n`);
  cancel.abort(signal);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

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
});
