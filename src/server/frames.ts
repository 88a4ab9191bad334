import { RECORD_VERSION } from "../events/index.ts";
import type { DataOf, JournaledEvent } from "../journal/index.ts";
import type { HistoryPage } from "./history-pages.ts";
import type { ClientMode } from "./protocol.ts";

/**
 * What the server sends: one JSON object per text frame.
 *
 * - Journaled events go out exactly as the journal holds them (`{v, id, seq, timestamp, type, data}`).
 * - Connection events (`server.ready`, `pong`, `history.batch`) and the server's own replies (`error`
 *   refusals, `checkpoint.list`, `info`) are never journaled: they have the same envelope without `seq`.
 * - A client that asked for batches (`handshake.data.batchEvents`, our addition) gets its live events
 *   in `event.batch` frames, `{..., type: "event.batch", data: {events: [...]}}`, each event as above.
 * - `handshake.response` is bare, `{type, data}`, as in the reference.
 */
export type UnjournaledType =
  | "server.ready"
  | "pong"
  | "history.batch"
  | "history.page"
  | "event.batch"
  | "error"
  | "info"
  | "checkpoint.list";

export type ErrorData = DataOf<"error">;

export interface HandshakeResponse {
  readonly type: "handshake.response";
  readonly data: {
    readonly clientId: string;
    readonly mode: ClientMode;
    /** The last journaled events, newest first (empty unless asked for). */
    readonly eventHistory: readonly JournaledEvent[];
    /** How many events the journal holds (its last seq). */
    readonly totalEvents: number;
  };
}

export interface FrameSource {
  readonly now: () => number;
  readonly newId: () => string;
}

/** An unjournaled event of the given type, enveloped like a journaled one but without `seq`. */
export function unjournaledFrame(source: FrameSource, type: UnjournaledType, data: unknown): string {
  return JSON.stringify({
    v: RECORD_VERSION,
    id: source.newId(),
    timestamp: new Date(source.now()).toISOString(),
    type,
    data,
  });
}

/**
 * Builds the `history.batch` frames of one `history.sync`: each holds the JSON of its events joined
 * with commas (one event unless the client asked for batches), or none. The
 * frames are assembled around it rather than serialized whole; they share the stream's timestamp and
 * number their ids after it.
 */
export function historyBatchFrames(
  source: FrameSource,
): (line: string | undefined, hasMore: boolean) => string {
  const streamId = source.newId();
  const timestamp = new Date(source.now()).toISOString();
  let count = 0;
  return (event, hasMore) => {
    count += 1;
    return `{"v":${RECORD_VERSION},"id":"${streamId}.${count}","timestamp":"${timestamp}","type":"history.batch","data":{"events":[${event ?? ""}],"hasMore":${hasMore}}}`;
  };
}

/**
 * Builds `event.batch` frames around events already serialized (the bytes every client shares), so a
 * batch costs one copy of its events and no JSON work.
 */
export function eventBatchFrames(source: FrameSource): (events: readonly Buffer[]) => Buffer {
  const comma = Buffer.from(",");
  const suffix = Buffer.from("]}}");
  return (events) => {
    const prefix = `{"v":${RECORD_VERSION},"id":"${source.newId()}","timestamp":"${new Date(source.now()).toISOString()}","type":"event.batch","data":{"events":[`;
    const parts: Buffer[] = [Buffer.from(prefix)];
    events.forEach((event, index) => {
      if (index > 0) parts.push(comma);
      parts.push(event);
    });
    parts.push(suffix);
    return Buffer.concat(parts);
  };
}

/**
 * A `history.page` frame: `{view?, events, hasOlder}` (see `HistoryPages`), its events in the bytes
 * every client shares (`serialize`), assembled around them like an `event.batch`.
 */
export function historyPageFrame(
  source: FrameSource,
  page: HistoryPage,
  serialize: (event: JournaledEvent) => Buffer,
): Buffer {
  const view = page.view === undefined ? "" : `"view":${JSON.stringify(page.view)},`;
  const head = `{"v":${RECORD_VERSION},"id":"${source.newId()}","timestamp":"${new Date(source.now()).toISOString()}","type":"history.page","data":{${view}"events":[`;
  const parts: Buffer[] = [Buffer.from(head)];
  page.events.forEach((event, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(serialize(event));
  });
  parts.push(Buffer.from(`],"hasOlder":${page.hasOlder}}}`));
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(",");

export function handshakeFrame(response: HandshakeResponse["data"]): string {
  return JSON.stringify({ type: "handshake.response", data: response } satisfies HandshakeResponse);
}

/** A refusal or failure that does not end anything: `fatal: false`, optional context and code. */
export function errorData(
  message: string,
  extra: Omit<Partial<ErrorData>, "message" | "fatal"> = {},
): ErrorData {
  return { message, fatal: false, ...extra };
}

/**
 * Journaled events are serialized and UTF-8 encoded once however many clients receive them: the bus
 * hands every subscriber the same object, so a weak cache keyed by it is enough.
 */
export function createEventSerializer(): (event: JournaledEvent) => Buffer {
  const cache = new WeakMap<JournaledEvent, Buffer>();
  return (event) => {
    let bytes = cache.get(event);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(event), "utf8");
      cache.set(event, bytes);
    }
    return bytes;
  };
}
