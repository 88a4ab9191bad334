import { RECORD_VERSION } from "../events/index.ts";
import { type DataOf, type JournaledEvent, writtenJsonOf } from "../journal/index.ts";
import type { HistoryPage } from "./history-pages.ts";
import type { ClientMode } from "./protocol.ts";
import { payloadOf, textFrameOf, textFrameOfParts, type WireFrame } from "./wire-frame.ts";

const COMMA = Buffer.from(",");

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
 * Builds `event.batch` messages around events already serialized (the bytes every client shares), as
 * the parts to write one after another, so a batch costs one copy of its events and no JSON work.
 */
export function eventBatchParts(source: FrameSource): (events: readonly Buffer[]) => Buffer[] {
  const suffix = Buffer.from("]}}");
  return (events) => {
    const prefix = `{"v":${RECORD_VERSION},"id":"${source.newId()}","timestamp":"${new Date(source.now()).toISOString()}","type":"event.batch","data":{"events":[`;
    const parts: Buffer[] = [Buffer.from(prefix)];
    events.forEach((event, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(event);
    });
    parts.push(suffix);
    return parts;
  };
}

/**
 * `event.batch` WebSocket frames shared by the clients of one server: clients that keep up flush the
 * same events at the same moment (they share one `WriteClock`), so the frame built for the first is
 * written as it is to the others (one id for all of them: a frame's id names the message, whoever
 * receives it).
 */
export function sharedBatchFrames(source: FrameSource): (events: readonly Buffer[]) => WireFrame {
  const build = eventBatchParts(source);
  let lastEvents: readonly Buffer[] = [];
  let lastFrame: WireFrame | undefined;
  return (events) => {
    if (lastFrame !== undefined && sameBuffers(events, lastEvents)) return lastFrame;
    lastEvents = [...events];
    lastFrame = textFrameOfParts(build(events));
    return lastFrame;
  };
}

function sameBuffers(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  return a.length === b.length && a.every((buffer, index) => buffer === b[index]);
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

/** One journaled event as every client receives it, built once however many clients do. */
export interface PreparedEvent {
  /** The event's WebSocket text frame: header and JSON, contiguous. */
  readonly frame: WireFrame;
  /** The event's JSON bytes, as the journal holds them: the frame's payload (a view, no copy). */
  readonly json: Buffer;
}

/**
 * Each journaled event's JSON and frame, encoded once for every client. The JSON is the text the
 * journal writer already produced for the same object (`writtenJsonOf`), so a published event is
 * serialized once in all; an older one (a slow client's backlog, a history page) is serialized here.
 * The fan-out hands every client the same object one after another, so the event just prepared is kept
 * at hand; nothing older is (a weak cache of every event costs the garbage collector more than it saves).
 */
export function createEventPreparer(): (event: JournaledEvent) => PreparedEvent {
  let lastEvent: JournaledEvent | undefined;
  let lastPrepared: PreparedEvent | undefined;
  return (event) => {
    if (event === lastEvent && lastPrepared !== undefined) return lastPrepared;
    const frame = textFrameOf(writtenJsonOf(event) ?? JSON.stringify(event));
    lastEvent = event;
    lastPrepared = { frame, json: payloadOf(frame) };
    return lastPrepared;
  };
}
