import { createInterface } from "node:readline";
import type { EventListener, ExecutionOptions, ExecutionResult } from "../../runner/index.ts";
import {
  type HankServer,
  type HostEnd,
  LiveExecution,
  setUpAccess,
  startServer,
} from "../../server/index.ts";
import type { CliIo } from "../cli-io.ts";
import type { CliOptions } from "../cli-options.ts";
import { type RenderOptions, tuiWanted } from "../render/style.ts";
import { runJson } from "./json-summary.ts";
import { renderInvalidHank } from "./load-and-validate.ts";
import { openWebPage, webPageLine } from "./open-web-page.ts";
import { closingLines, progressPrinter } from "./progress-printer.ts";

export { checkGit } from "../../runner/index.ts";

export interface RunIo extends CliIo {
  readonly argv: readonly string[];
  /** Cancels the run (SIGINT); the main binary wires it. */
  readonly signal: AbortSignal;
}

/**
 * Runs a hank: a thin shell over a served execution. The WebSocket server binds first (its port goes
 * into the execution's lock), then the run starts. On a terminal without `--headless` the TUI watches
 * and steers it as an in-process client; otherwise progress lines go to stderr (stdout stays quiet)
 * and the server still listens, so a script can attach. Exit code: 0 when the run completed or its
 * user stopped it, 1 otherwise.
 */
export async function runHankCommand(
  options: CliOptions,
  io: RunIo,
  render: RenderOptions,
  /** Runner options a command adds (`--replay`: the replay harness for every codon). */
  extra: Pick<ExecutionOptions, "harnesses"> = {},
): Promise<number> {
  const access = setUpAccess({
    ...(options.host !== undefined && { host: options.host }),
    ...(options.token !== undefined && { token: options.token }),
  });
  if (!access.ok) return fail(io, access.message);
  const terminal = { stdin: process.stdin.isTTY === true, stdout: process.stdout.isTTY === true };
  const tui = tuiWanted(options.headless, terminal, io.env);
  let server: HankServer | undefined;
  const host = new LiveExecution({
    execution: {
      ...executionOptions(options, io, tui, (layout, notes) => {
        if (tui) return;
        for (const note of notes) io.stderr.write(`  ${note}\n`);
        io.stderr.write(`> execution ${layout.executionDir}\n`);
        if (server !== undefined) io.stderr.write(banner(server, options.headless, access.policy.token));
      }),
      ...extra,
    },
    stayOpen: tui,
  });
  try {
    server = await startServer({
      execution: host,
      access: access.policy,
      port: options.port ?? 0,
      serverVersion: io.runtime.version,
      ...(options.idleTimeout !== undefined && { clientIdleTimeoutSeconds: options.idleTimeout }),
    });
  } catch (caught) {
    return fail(io, caught instanceof Error ? caught.message : String(caught));
  }
  if (access.generatedToken)
    io.stderr.write(`  Token: ${access.policy.token ?? ""} (clients send it as ?token=)\n`);
  host.start(server.port);
  if (options.open === true) {
    const needsToken = access.policy.token !== undefined;
    openWebPage(server, { needsToken, print: tui, stderr: io.stderr, env: io.env });
  }
  // --no-autostart: the run opens (lock, journal) and pauses at its first boundary until a client
  // sends codon.next (resume) or codon.start.
  if (options.noAutostart === true) host.sendToRun({ type: "pause", source: "cli" }, "no-autostart");
  const end = tui ? await watchWithTui(host, server, access.policy.token, render) : await host.ended;
  await server.close();
  io.stderr.write(report(end, options, io, render, tui));
  if (options.json) io.stdout.write(runJson(end));
  return end.exitCode;
}

/** The runner's options for this command; `onOpened` prints where the run is (not under the TUI). */
function executionOptions(
  options: CliOptions,
  io: RunIo,
  tui: boolean,
  onOpened: NonNullable<ExecutionOptions["onOpened"]>,
): ExecutionOptions {
  return {
    hank: options.hankPath,
    cwd: io.cwd,
    env: io.env,
    ...(options.dataPath !== undefined && { data: options.dataPath }),
    ...(options.model !== undefined && { model: options.model }),
    ...(options.execution !== undefined && { execution: options.execution }),
    startNew: options.startNew,
    force: options.force,
    ...(options.noWipe === true && { noWipe: true }),
    yes: options.yes,
    copy: options.copy,
    ...(options.durable !== undefined && { durableJournal: options.durable }),
    ...(options.otel === true && { tracing: { enabled: true } }),
    ...(!options.headless && io.stdout.isTTY && { confirm: askOnTerminal }),
    headless: options.headless,
    ...(options.maxCost !== undefined && { maxCostUsd: options.maxCost }),
    ...(options.maxTime !== undefined && { maxTimeSeconds: options.maxTime }),
    ...(options.shimIdleTimeout !== undefined && { agentIdleTimeoutSeconds: options.shimIdleTimeout }),
    ...(options.output !== undefined && { outputDir: options.output }),
    overwriteOutput: options.overwriteOutput,
    ignoreRigFailures: options.ignoreRigFailures,
    signal: io.signal,
    // The start is over before the first codon's line is printed: a script that waits for that line
    // and then stops the process does not cut the work `startupDone` does short.
    listeners: [...startupListener(io.startupDone), ...(tui ? [] : [progressPrinter(io.stderr)])],
    runtime: { version: io.runtime.version, argv: io.argv },
    onOpened,
  };
}

/** Tells `startupDone` when the first codon starts. */
function startupListener(startupDone: (() => void) | undefined): EventListener[] {
  if (startupDone === undefined) return [];
  let told = false;
  return [
    (event) => {
      if (told || event.type !== "codon.started") return;
      told = true;
      startupDone();
    },
  ];
}

/**
 * The TUI, once the execution is open (a question about the execution is asked on the terminal
 * before it draws). It quits with the host: `q` asks the server to shut down.
 */
async function watchWithTui(
  host: LiveExecution,
  server: HankServer,
  token: string | undefined,
  render: RenderOptions,
): Promise<HostEnd> {
  const layout = await host.opened();
  if (layout === undefined) return host.ended;
  const { startTui } = await import("../../tui/index.ts");
  const session = await startTui({
    url: server.url,
    ...(token !== undefined && { token }),
    mode: "readandwrite",
    color: render.color,
    width: render.width,
    stdout: process.stdout,
    stdin: process.stdin,
  });
  const end = await host.ended;
  await server.close();
  await session.done;
  return end;
}

function banner(server: HankServer, headless: boolean, token: string | undefined): string {
  const lines = [`  WebSocket: ${server.url}`, webPageLine(server, token !== undefined).trimEnd()];
  if (headless) lines.push(`  Running in headless mode on port ${server.port}`);
  return `${lines.join("\n")}\n`;
}

/** What the CLI prints once serving ended (under the TUI, only what the TUI could not show). */
function report(end: HostEnd, options: CliOptions, io: RunIo, render: RenderOptions, tui: boolean): string {
  const { result } = end;
  if (result === undefined) return end.forced ? `! Forced shutdown (${end.reason})\n` : "";
  return reportResult(result, options, io, render, tui);
}

function reportResult(
  result: ExecutionResult,
  options: CliOptions,
  io: RunIo,
  render: RenderOptions,
  tui: boolean,
): string {
  switch (result.kind) {
    case "invalid":
      return renderInvalidHank(result, options.hankPath, io.cwd, io.runtime, render);
    case "refused":
      return `✗ ${result.message}\n`;
    case "nothing-to-do":
      return `${result.message}\n`;
    case "ran":
      if (tui) return "";
      return closingLines(result.state, {
        ...result.layout,
        ...(options.output !== undefined && { outputDir: options.output }),
      });
  }
}

function fail(io: RunIo, message: string): number {
  io.stderr.write(`✗ ${message}\n`);
  return 1;
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
