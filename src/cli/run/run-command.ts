import { createInterface } from "node:readline";
import { type ExecutionResult, runExecution } from "../../runner/index.ts";
import type { CliIo } from "../cli-io.ts";
import type { CliOptions } from "../cli-options.ts";
import type { RenderOptions } from "../render/style.ts";
import { renderInvalidHank } from "./load-and-validate.ts";
import { closingLines, progressPrinter } from "./progress-printer.ts";

export { checkGit } from "../../runner/index.ts";

export interface RunIo extends CliIo {
  readonly argv: readonly string[];
  /** Cancels the run (SIGINT); the main binary wires it. */
  readonly signal: AbortSignal;
}

/**
 * Runs a hank: a thin shell over the runner. Arguments in, progress out on stderr (stdout stays quiet),
 * and the exit code: 0 when the run completed (or was stopped by its user), 1 otherwise.
 */
export async function runHankCommand(options: CliOptions, io: RunIo, render: RenderOptions): Promise<number> {
  const result = await runExecution({
    hank: options.hankPath,
    cwd: io.cwd,
    env: io.env,
    ...(options.dataPath !== undefined && { data: options.dataPath }),
    ...(options.model !== undefined && { model: options.model }),
    ...(options.execution !== undefined && { execution: options.execution }),
    startNew: options.startNew,
    force: options.force,
    yes: options.yes,
    copy: options.copy,
    ...(!options.headless && io.stdout.isTTY && { confirm: askOnTerminal }),
    headless: options.headless,
    ...(options.maxCost !== undefined && { maxCostUsd: options.maxCost }),
    ...(options.maxTime !== undefined && { maxTimeSeconds: options.maxTime }),
    ...(options.shimIdleTimeout !== undefined && { idleTimeoutSeconds: options.shimIdleTimeout }),
    ...(options.output !== undefined && { outputDir: options.output }),
    overwriteOutput: options.overwriteOutput,
    ignoreRigFailures: options.ignoreRigFailures,
    signal: io.signal,
    listeners: [progressPrinter(io.stderr)],
    runtime: { version: io.runtime.version, argv: io.argv },
    onOpened: (layout, notes) => {
      for (const note of notes) io.stderr.write(`  ${note}\n`);
      io.stderr.write(`> execution ${layout.executionDir}\n`);
    },
  });
  io.stderr.write(report(result, options, io, render));
  return result.exitCode;
}

/** What the CLI prints once the runner settled. */
function report(result: ExecutionResult, options: CliOptions, io: RunIo, render: RenderOptions): string {
  switch (result.kind) {
    case "invalid":
      return renderInvalidHank(result, options.hankPath, io.cwd, io.runtime, render);
    case "refused":
      return `✗ ${result.message}\n`;
    case "nothing-to-do":
      return `${result.message}\n`;
    case "ran":
      return closingLines(result.state, result.layout.executionDir, result.layout.agentRoot);
  }
}

/** Asks on the terminal; no answer within the timeout counts as "no" (fail closed). */
function askOnTerminal(question: string, timeoutMs: number): Promise<boolean> {
  if (!process.stdin.isTTY) return Promise.resolve(false);
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const timer = setTimeout(() => {
      rl.close();
      resolve(false);
    }, timeoutMs);
    rl.question(`${question} [y/N] `, (answer) => {
      clearTimeout(timer);
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}
