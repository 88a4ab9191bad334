import { existsSync } from "node:fs";
import { inspectLock } from "../../runner/index.ts";
import { type HankServer, LiveExecution, setUpAccess, startServer } from "../../server/index.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import type { CliIo } from "../cli-io.ts";
import type { RenderOptions } from "../render/style.ts";
import type { ViewOptions } from "../rollback/subcommand-command.ts";
import { openWebPage, webPageLine } from "../run/open-web-page.ts";
import { shellCommand } from "../shell-quote.ts";

/**
 * `hankweave view <execution>`: an execution as it stands, served read-only from its journal: its web
 * page (the run's story to the end, checkpoints included) and, on a terminal, its final TUI screen.
 * Nothing runs and no client can steer. A live run is watched with `--attach` instead. Serves until
 * Ctrl-C; exit 0.
 */
export async function runViewCommand(
  options: ViewOptions,
  io: CliIo,
  render: RenderOptions,
): Promise<number> {
  const layout = executionLayout(options.execution);
  if (!existsSync(layout.metaPath)) {
    io.stderr.write(
      `✗ No hankweave execution at ${layout.executionDir} (no .hankweave/execution-meta.json).\n`,
    );
    return 1;
  }
  const lock = inspectLock(layout.lockPath, { pid: -1, now: Date.now() });
  if (lock.status === "live") {
    const attach = shellCommand(["hankweave", "--attach", layout.executionDir]);
    io.stderr.write(`✗ A run is live on ${layout.executionDir}: watch it with ${attach}\n`);
    return 1;
  }
  const access = setUpAccess({});
  if (!access.ok) {
    io.stderr.write(`✗ ${access.message}\n`);
    return 1;
  }
  const stop = new AbortController();
  const host = new LiveExecution({
    execution: { hank: layout.executionDir, signal: io.signal ?? stop.signal },
    stayOpen: true,
    view: layout,
  });
  let server: HankServer;
  try {
    server = await startServer({
      execution: host,
      access: access.policy,
      port: options.port ?? 0,
      serverVersion: io.runtime.version,
    });
  } catch (caught) {
    io.stderr.write(`✗ ${caught instanceof Error ? caught.message : String(caught)}\n`);
    return 1;
  }
  io.stderr.write(`  Viewing ${layout.executionDir} (read-only; nothing runs)\n`);
  io.stderr.write(webPageLine(server, false));
  if (options.open) openWebPage(server, { needsToken: false, print: false, stderr: io.stderr, env: io.env });
  if (process.stdout.isTTY === true && process.stdin.isTTY === true) await finalScreen(server, render);
  io.stderr.write("  Serving until Ctrl-C.\n");
  await host.ended;
  await server.close();
  return 0;
}

/** The run's final TUI screen: the TUI replays the journal, then leaves its summary on the terminal. */
async function finalScreen(server: HankServer, render: RenderOptions): Promise<void> {
  const { startTui } = await import("../../tui/index.ts");
  const session = await startTui({
    url: server.url,
    mode: "readonly",
    color: render.color,
    width: render.width,
    stdout: process.stdout,
    stdin: process.stdin,
  });
  await session.done;
}
