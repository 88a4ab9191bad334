import type { ReactNode } from "react";
import type { RunStream } from "../server/client/node-stream.ts";
import type { InkModules } from "./ink-modules.ts";
import { keyAction, type Menu } from "./keys.ts";
import { initialTuiState, type TuiState } from "./tui-model.ts";
import { connectionClosed, reduceFrames, type ServerFrame } from "./tui-state.ts";
import { createTuiView } from "./view.ts";

/** What the TUI needs of the protocol stream (`RunStream` is one). */
export type TuiClient = Pick<RunStream, "onFrame" | "send" | "ended" | "close">;

export interface TuiAppProps {
  readonly client: TuiClient;
  /** An `--attach` watcher: keys that steer the run are refused, `q` detaches. */
  readonly readOnly: boolean;
  readonly width: number;
  readonly color: boolean;
  /** The TUI's clock (heartbeat, elapsed times). Default `Date.now`. */
  readonly now?: () => number;
  /** How often the clock-driven parts redraw. Default 1 s. */
  readonly tickMs?: number;
  /** Frames arriving within this window are applied in one update. Default 50 ms. */
  readonly batchMs?: number;
}

/**
 * The TUI as a component over the protocol stream: the whole journal first, then live, each event once
 * in `seq` order (the stream sees to it), applied in batches; it redraws the clock every `tickMs`, turns
 * keys into commands, and exits once the stream ends (the server closed the connection) or, for a
 * read-only watcher, once the run it watches has ended, leaving the last frame (the summary) on the
 * terminal. */
export function createTuiApp(modules: InkModules): (props: TuiAppProps) => ReactNode {
  const { react, ink } = modules;
  const View = createTuiView(modules);
  // biome-ignore lint/correctness/noComponentHookFactories: the component closes over ink and React, loaded lazily (ink-modules.ts); the factory runs once per TUI.
  return function TuiApp(props: TuiAppProps): ReactNode {
    const now = props.now ?? Date.now;
    const [state, setState] = react.useState<TuiState>(() => initialTuiState(now()));
    const [clock, setClock] = react.useState(now());
    const [menu, setMenu] = react.useState<Menu | undefined>(undefined);
    const [note, setNote] = react.useState<string | undefined>(undefined);
    const quits = react.useRef(0);
    // The key handler reads the latest state through refs: a key pressed right after a redraw may reach
    // a handler registered before it.
    const menuRef = react.useRef(menu);
    menuRef.current = menu;
    const stateRef = react.useRef(state);
    stateRef.current = state;
    const { exit } = ink.useApp();

    react.useEffect(() => followClient(props, now, setState), [props.client]);
    react.useEffect(() => {
      const timer = setInterval(() => setClock(now()), props.tickMs ?? 1000);
      return () => clearInterval(timer);
    }, []);
    const watchedRunEnded = props.readOnly && state.outcome !== undefined && state.running === undefined;
    react.useEffect(() => {
      // A watcher is done with the run once it ended, whatever other clients keep the server open for.
      if (watchedRunEnded) props.client.close();
      if (state.connection === "closed" || watchedRunEnded) exit();
    }, [state.connection, watchedRunEnded]);
    const { isRawModeSupported } = ink.useStdin();
    ink.useInput(
      (input, key) => {
        const action = keyAction({
          input,
          key,
          readOnly: props.readOnly,
          state: stateRef.current,
          menu: menuRef.current,
          quits: quits.current,
        });
        if (action.send !== undefined) props.client.send(action.send.type, action.send.data);
        if (action.quit === true) quits.current += 1;
        if (action.detach === true) props.client.close();
        if (action.menu !== "keep") {
          menuRef.current = action.menu;
          setMenu(action.menu);
        }
        setNote(action.note);
      },
      { isActive: isRawModeSupported === true },
    );
    return react.createElement(View, {
      state,
      now: clock,
      width: props.width,
      color: props.color,
      readOnly: props.readOnly,
      menu,
      note,
    });
  };
}

/** Feeds the stream's frames into the state, in batches. Returns the effect's cleanup. */
function followClient(
  props: TuiAppProps,
  now: () => number,
  setState: (update: (state: TuiState) => TuiState) => void,
): () => void {
  const pending: ServerFrame[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const frames = pending.splice(0);
    if (frames.length > 0) setState((state) => reduceFrames(state, frames, now()));
  };
  const stop = props.client.onFrame((frame) => {
    pending.push(frame);
    timer ??= setTimeout(flush, props.batchMs ?? 50);
  });
  let active = true;
  void props.client.ended.then(() => {
    if (!active) return;
    flush();
    setState(connectionClosed);
  });
  return () => {
    active = false;
    stop();
    if (timer !== undefined) clearTimeout(timer);
  };
}
