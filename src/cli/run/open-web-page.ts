import { spawn } from "node:child_process";
import type { HankServer } from "../../server/index.ts";

/** The run's web page: `/ui/` on the WebSocket server's port (docs/web.md). */
export function webPageUrl(server: Pick<HankServer, "url">): string {
  return server.url.replace(/^ws/, "http").replace(/\/?$/, "/ui/");
}

/** The line the run prints about its web page; the token is never printed, only asked for. */
export function webPageLine(server: Pick<HankServer, "url">, needsToken: boolean): string {
  return `  Web page: ${webPageUrl(server)}${needsToken ? " (add ?token=<token>)" : ""}\n`;
}

/**
 * `--open`: asks the desktop to open the run's web page (`open` on macOS, `xdg-open` elsewhere), and
 * prints its address when the run's banner does not (under the TUI). No desktop, no opener: the
 * address is enough. A page that needs a token is not opened (its address would have to carry it).
 */
export function openWebPage(
  server: Pick<HankServer, "url">,
  options: {
    readonly needsToken: boolean;
    readonly print: boolean;
    readonly stderr: { write(text: string): unknown };
    readonly env: Readonly<Record<string, string | undefined>>;
  },
): void {
  if (options.print) options.stderr.write(webPageLine(server, options.needsToken));
  if (options.needsToken) return;
  const opener = process.platform === "darwin" ? "open" : "xdg-open";
  try {
    const child = spawn(opener, [webPageUrl(server)], {
      detached: true,
      stdio: "ignore",
      env: { ...options.env },
    });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the address is printed for the reader.
  }
}
