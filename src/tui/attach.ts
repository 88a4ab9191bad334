import { DEFAULT_ATTACH_PORT, servedPortOf } from "../server/find-server.ts";
import { startTui } from "./run-tui.ts";

export interface AttachInput {
  readonly port?: number;
  readonly execution?: string;
  /** The server's address when it is not on this machine's loopback. */
  readonly host?: string;
  readonly token?: string;
  readonly color: boolean;
  readonly width: number;
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly stderr: { write(text: string): void };
}

/**
 * `hankweave --attach`: a read-only TUI on a run served by another process: the run view and the
 * newest page of its journal (history paging: a long run's journal is not sent whole), then live. The port is the one given, else the one the execution's lock records, else 7777. When the
 * run ends and its server closes the connection, the TUI shows how the run ended and exits 0; it never
 * steers the run (`q` detaches).
 */
export async function attachCommand(input: AttachInput): Promise<number> {
  const port = resolvePort(input);
  if (typeof port === "string") {
    input.stderr.write(`✗ ${port}\n`);
    return 1;
  }
  const host = input.host ?? "localhost";
  const url = `ws://${host.includes(":") ? `[${host}]` : host}:${port}`;
  try {
    const session = await startTui({
      url,
      ...(input.token !== undefined && { token: input.token }),
      mode: "readonly",
      history: "paged",
      color: input.color,
      width: input.width,
      stdout: input.stdout,
      stdin: input.stdin,
    });
    await session.done;
    return 0;
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    input.stderr.write(`✗ Could not attach to ${url}: ${reason}\n`);
    return 1;
  }
}

function resolvePort(input: AttachInput): number | string {
  if (input.port !== undefined) return input.port;
  if (input.execution === undefined) return DEFAULT_ATTACH_PORT;
  const served = servedPortOf(input.execution);
  return served.ok ? served.port : served.message;
}
