/**
 * The JSON text each of the latest journaled events was written as: its journal line without the
 * chain's `prev` and the LF, which is `JSON.stringify` of the very object the sink then publishes.
 * Whoever sends a just-published event on as JSON (the server, to every client) takes this text
 * instead of serializing the event a second time.
 *
 * Only the last `KEPT` events are kept, in a ring, by identity: a published event is asked for right
 * after its append (a codon boundary appends a handful at once), and an older one, or one read back from
 * a journal, is simply serialized again. A `WeakMap` keyed by every event would keep them all, but its
 * entries cost the garbage collector more than the serialization they save (about 0.6 µs an event).
 */
const KEPT = 64;
const events: (object | undefined)[] = new Array(KEPT).fill(undefined);
const texts: (string | undefined)[] = new Array(KEPT).fill(undefined);
let next = 0;

export function rememberWrittenJson(event: object, json: string): void {
  events[next] = event;
  texts[next] = json;
  next = (next + 1) % KEPT;
}

/** The JSON the journal wrote for this event object, if it is one of the latest `KEPT` written. */
export function writtenJsonOf(event: object): string | undefined {
  for (let back = 1; back <= KEPT; back++) {
    const at = (next - back + KEPT) % KEPT;
    if (events[at] === event) return texts[at];
  }
  return undefined;
}
