import "./outside-ci.ts";
import { render } from "ink-testing-library";
import { openRunStream } from "../../src/server/client/node-stream.ts";
import type { ClientMode } from "../../src/server/index.ts";
import { loadInk } from "../../src/tui/ink-modules.ts";
import { createTuiApp } from "../../src/tui/tui-app.ts";

const WAIT_MS = 20_000;

export interface RenderedTui {
  /** Everything written so far (the timeline and every redraw), escape codes included. */
  output(): string;
  /** The live area as last drawn. */
  lastFrame(): string;
  /** Resolves once the screen shows `pattern`: in the last frame, or in one drawn later. */
  waitFor(pattern: RegExp): Promise<void>;
  press(input: string): void;
  /** Moves the TUI's clock (heartbeat, elapsed times) forward. */
  advance(ms: number): void;
  /** Settles once the app has exited (the server closed the connection, or it detached). */
  readonly exited: Promise<void>;
}

/** The TUI over a real protocol client of `url`, drawn by ink-testing-library. */
export async function renderTui(
  url: string,
  mode: ClientMode,
  options: { color?: boolean; width?: number } = {},
): Promise<RenderedTui> {
  const client = await openRunStream({ url, mode });
  const modules = await loadInk();
  const App = createTuiApp(modules);
  let offset = 0;
  const instance = render(
    modules.react.createElement(App, {
      client,
      readOnly: mode === "readonly",
      width: options.width ?? 100,
      color: options.color ?? false,
      now: () => Date.now() + offset,
      tickMs: 20,
      batchMs: 10,
    }),
  );
  const waiters = new Set<() => void>();
  const write = instance.stdout.write;
  instance.stdout.write = (frame: string) => {
    write(frame);
    for (const wake of [...waiters]) wake();
  };
  let exit: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    exit = resolve;
  });
  void client.ended.then(() => setTimeout(exit, 50));
  const output = () => instance.frames.join("\n");
  return {
    output,
    lastFrame: () => instance.lastFrame() ?? "",
    waitFor(pattern) {
      const from = Math.max(0, instance.frames.length - 1);
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          if (!pattern.test(instance.frames.slice(from).join("\n"))) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the TUI never showed ${pattern}; last frame:\n${instance.lastFrame() ?? ""}`));
        }, WAIT_MS);
        if (!check()) waiters.add(check);
      });
    },
    press: (input) => instance.stdin.write(input),
    advance(ms) {
      offset += ms;
    },
    exited,
  };
}
