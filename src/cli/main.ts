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

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: output(process.stdout),
  stderr: output(process.stderr),
  runtime: {
    version: readPackageVersion(),
    platform: process.platform,
    arch: process.arch,
    nodeVersion: process.version,
  },
});
