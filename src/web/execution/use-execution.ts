import { useEffect, useState, useSyncExternalStore } from "react";
import {
  type ClientMode,
  openProtocolStream,
  type ProtocolStream,
  type ReplyFrame,
  type StreamStatus,
} from "../../server/client/protocol-stream.ts";
import { ExecutionModel } from "./execution-model.ts";
import { socketUrlOf } from "./socket-url.ts";

export interface CheckpointRow {
  readonly codonId: string;
  readonly codonName: string;
  readonly checkpointType: string;
  readonly sha: string;
  readonly status: string;
  readonly timestamp: string;
}

/** Everything the page reads: the folded journal plus what the server answered this client. */
export interface ExecutionStore {
  readonly model: ExecutionModel;
  status: StreamStatus;
  /**
   * True once the first `history.sync` finished. Until then the page shows only its progress: laying
   * out a 10,000-event history once beats laying it out again on every frame while it streams in.
   */
  synced: boolean;
  /** The mode the server granted (it may refuse writing: `hankweave view`); until then, the asked one. */
  mode: ClientMode;
  checkpoints: readonly CheckpointRow[] | undefined;
  /** The server's last refusal or failure answer to this client (`error` frames). */
  notice: string | undefined;
  send(type: string, data?: Record<string, unknown>): boolean;
  /** Asks for the page of events before those shown (history paging). */
  loadOlder(): void;
}

/**
 * Connects once per page (history paging: the newest page of the journal with the run view before it,
 * then live; older pages when the reader asks) and re-renders at most once per animation frame however fast events come:
 * the cost of following a busy run is one render per frame, not one per event.
 */
export function useExecution(): { store: ExecutionStore; version: number } {
  const [holder] = useState(createHolder);
  useEffect(() => holder.start(), [holder]);
  const version = useSyncExternalStore(holder.subscribe, holder.version);
  return { store: holder.store, version };
}

function createHolder() {
  const listeners = new Set<() => void>();
  let version = 0;
  let scheduled = false;
  let socket: ProtocolStream | undefined;
  const mode: ClientMode =
    new URLSearchParams(location.search).get("mode") === "readonly" ? "readonly" : "readandwrite";
  const changed = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      version += 1;
      for (const listener of listeners) listener();
    });
  };
  const store: ExecutionStore = {
    model: new ExecutionModel(),
    status: "connecting",
    synced: false,
    mode,
    checkpoints: undefined,
    notice: undefined,
    send: (type, data) => socket?.send(type, data) ?? false,
    loadOlder: () => void socket?.loadOlder(),
  };
  const onReply = (frame: ReplyFrame): void => {
    if (frame.type === "handshake.response") {
      if (frame.data.mode === "readonly" || frame.data.mode === "readandwrite") store.mode = frame.data.mode;
      changed();
      return;
    }
    if (frame.type === "checkpoint.list")
      store.checkpoints = (frame.data.checkpoints ?? []) as CheckpointRow[];
    if (frame.type === "error") store.notice = String(frame.data.message ?? "The server refused the command");
    if (frame.type === "info") store.notice = String(frame.data.message ?? "");
    changed();
  };
  return {
    store,
    version: () => version,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      socket = openProtocolStream({
        url: socketUrlOf(location),
        mode,
        reconnect: true,
        openSocket: (url) => new WebSocket(url),
        // The newest page with the run view before it, older pages on request: a long run is shown
        // without parsing its whole journal in the browser.
        history: "paged",
        onPage: (page) => {
          if (page.kind === "newest") store.model.seed(page.view, page.hasOlder);
          else store.model.prependOlder(page.events, page.hasOlder);
          changed();
        },
        onEvent: (event) => {
          store.model.apply(event);
          changed();
        },
        onReply,
        onStatus: (status) => {
          store.status = status;
          if (status === "live") store.synced = true;
          changed();
        },
      });
      return () => socket?.close();
    },
  };
}
