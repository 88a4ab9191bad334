import { runLoopsCommand } from "../../src/cli/loops/loops-command.ts";
import { captureIo } from "../cli-tools/capture-io.ts";

/** Runs `hankweave loops <argv>` in-process, as a user would; returns the exit code and the output. */
export async function runLoops(
  argv: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string | undefined> },
) {
  const { io, out, err } = captureIo(options.cwd, options.env);
  const code = await runLoopsCommand([...argv], io);
  return { code, stdout: out(), stderr: err() };
}
