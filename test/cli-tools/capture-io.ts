import type { CliIo } from "../../src/cli/cli-io.ts";

/** A CliIo for in-process runs of `runCli`: output is captured, never printed. */
export function captureIo(
  cwd: string,
  env: Record<string, string | undefined> = {},
  onStderr: (soFar: string) => void = () => undefined,
): { readonly io: CliIo; readonly out: () => string; readonly err: () => string } {
  let out = "";
  let err = "";
  const io: CliIo = {
    cwd,
    env: { NO_COLOR: "1", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdout: {
      write: (text) => {
        out += text;
      },
      isTTY: false,
      columns: undefined,
    },
    stderr: {
      write: (text) => {
        err += text;
        onStderr(err);
      },
      isTTY: false,
      columns: undefined,
    },
    runtime: { version: "0.0.0-test", platform: "linux", arch: "x64", nodeVersion: process.version },
  };
  return { io, out: () => out, err: () => err };
}
