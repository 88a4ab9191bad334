import { open } from "node:fs/promises";
import { type JournaledEvent, readTail } from "../journal/index.ts";
import { parseRecord } from "../journal/parse-record.ts";
import { CHUNK_BYTES, forEachLine } from "../journal/scan-lines.ts";

/** How many events a handshake with `sendPreviousEvents` gets, as in the reference. */
export const HANDSHAKE_HISTORY_LIMIT = 50;

export interface HandshakeHistory {
  /** Newest first. */
  readonly eventHistory: readonly JournaledEvent[];
  /** The journal's size: the seq of its last event. */
  readonly totalEvents: number;
}

/**
 * The history a handshake carries, read backwards from the journal's end: the cost follows the 50
 * events, never the journal's length. Without a journal yet, it is empty.
 */
export function handshakeHistory(journalPath: string | undefined, wanted: boolean): HandshakeHistory {
  if (journalPath === undefined) return { eventHistory: [], totalEvents: 0 };
  const tail = readTail(journalPath, wanted ? HANDSHAKE_HISTORY_LIMIT : 1).events;
  const totalEvents = tail.at(-1)?.seq ?? 0;
  return { eventHistory: wanted ? tail.reverse() : [], totalEvents };
}

/**
 * Streams the journal's events with seq above `afterSeq`, oldest first, to `send`, one 64 KiB chunk
 * at a time: the next chunk is read only once every event of the previous one has been sent, and
 * `send` may return a promise to hold the stream (a client's socket that is full). Memory stays at one
 * chunk whatever the journal's length. Events appended while streaming may or may not be included.
 * Returns how many events were sent.
 */
export async function streamJournal(
  journalPath: string,
  afterSeq: number,
  send: (event: JournaledEvent) => void | Promise<void>,
): Promise<number> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(journalPath, "r");
  } catch (caught) {
    if (caught instanceof Error && "code" in caught && caught.code === "ENOENT") return 0;
    throw caught;
  }
  const parsed: JournaledEvent[] = [];
  let sent = 0;
  const flush = async (): Promise<void> => {
    for (const event of parsed.splice(0)) {
      const held = send(event);
      if (held !== undefined) await held;
      sent += 1;
    }
  };
  async function* paced(chunks: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    for await (const chunk of chunks) {
      await flush();
      yield chunk;
    }
  }
  const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  try {
    await forEachLine(paced(stream), (line) => {
      const event = parseRecord(line.toString("utf8"), false);
      if (event !== null && event.seq > afterSeq) parsed.push(event);
    });
    await flush();
  } finally {
    stream.destroy();
    await handle.close().catch(() => undefined);
  }
  return sent;
}
