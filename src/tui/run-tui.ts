import { openRunStream } from "../server/client/node-stream.ts";
import type { ClientMode } from "../server/index.ts";
import { loadInk } from "./ink-modules.ts";
import { createTuiApp } from "./tui-app.ts";

export interface StartTuiOptions {
  /** The server, `ws://localhost:<port>`. */
  readonly url: string;
  readonly token?: string;
  /** `readandwrite` for the run's own TUI, `readonly` for `--attach`. */
  readonly mode: ClientMode;
  readonly color: boolean;
  /** At most 120 columns. */
  readonly width: number;
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  /** `paged` for `--attach`: the run view and the newest page of events, not the whole journal. */
  readonly history?: "full" | "paged";
}

export interface TuiSession {
  /** Settles once the TUI has exited (the server closed the connection, or a watcher detached). */
  readonly done: Promise<void>;
}

/**
 * Connects to the server and draws the TUI on the terminal. Rejects when the connection fails (wrong
 * port, refused token), before anything is drawn.
 */
export async function startTui(options: StartTuiOptions): Promise<TuiSession> {
  // ink and React load while the connection is made: most of a start is loading them.
  const loading = loadInk();
  loading.catch(() => undefined);
  const client = await openRunStream({
    url: options.url,
    mode: options.mode,
    ...(options.token !== undefined && { token: options.token }),
    ...(options.history !== undefined && { history: options.history }),
  });
  const modules = await loading;
  const App = createTuiApp(modules);
  const instance = modules.ink.render(
    modules.react.createElement(App, {
      client,
      readOnly: options.mode === "readonly",
      width: options.width,
      color: options.color,
    }),
    { stdout: options.stdout, stdin: options.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  const done = instance.waitUntilExit().then(
    () => client.close(),
    () => client.close(),
  );
  return { done };
}
