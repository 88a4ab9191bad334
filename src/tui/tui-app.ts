import type { ReactNode } from "react";
import type { JournaledEvent } from "../journal/index.ts";
import type { CommandType } from "../server/index.ts";
import type { ServerFrame } from "../server/protocol-client.ts";
import type { InkModules } from "./ink-modules.ts";
import { keyAction, type Menu } from "./keys.ts";
import { initialTuiState, type TuiState } from "./tui-model.ts";
import { connectionClosed, reduceFrame } from "./tui-state.ts";
import { createTuiView } from "./view.ts";

/** What the TUI needs of a protocol client (`ProtocolClient` is one). */
export interface TuiClient {
  onFrame(listener: (frame: ServerFrame) => void): () => void;
  send(type: CommandType, data?: Record<string, unknown>): string;
  readonly closed: Promise<unknown>;
  close(): void;
}

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
 * The TUI as a component over a protocol client: it asks for the whole journal first (`history.sync`,
 * live events held until it is done, then applied once each by seq), applies frames in batches, redraws
 * the clock every `tickMs`, turns keys into commands, and exits once the server closes the connection,
 * leaving the last frame (the summary) on the terminal.
 */
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
    react.useEffect(() => {
      if (state.connection === "closed") exit();
    }, [state.connection]);
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

/**
 * Feeds the client's frames into the state: history first, then live, in batches. Returns the effect's
 * cleanup.
 */
function followClient(
  props: TuiAppProps,
  now: () => number,
  setState: (update: (state: TuiState) => TuiState) => void,
): () => void {
  const pending: ServerFrame[] = [];
  const held: ServerFrame[] = [];
  let syncing = true;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const frames = pending.splice(0);
    if (frames.length > 0)
      setState((state) => frames.reduce((acc, frame) => reduceFrame(acc, frame, now()), state));
  };
  const stop = props.client.onFrame((frame) => {
    if (frame.kind === "unjournaled" && frame.type === "history.batch") {
      const events = Array.isArray(frame.data.events) ? (frame.data.events as JournaledEvent[]) : [];
      for (const event of events) pending.push({ kind: "event", event });
      if (frame.data.hasMore === false) {
        syncing = false;
        pending.push(...held.splice(0));
      }
    } else if (syncing && frame.kind === "event") held.push(frame);
    else pending.push(frame);
    timer ??= setTimeout(flush, props.batchMs ?? 50);
  });
  props.client.send("history.sync");
  let active = true;
  void props.client.closed.then(() => {
    if (!active) return;
    syncing = false;
    pending.push(...held.splice(0));
    flush();
    setState(connectionClosed);
  });
  return () => {
    active = false;
    stop();
    if (timer !== undefined) clearTimeout(timer);
  };
}
