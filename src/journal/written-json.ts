/**
 * The JSON text each event was journaled as: its journal line without the chain's `prev` and the LF,
 * which is `JSON.stringify` of the very object the sink then publishes. Whoever sends a published
 * event on as JSON (the server, to every client) takes this text instead of serializing the event a
 * second time. Weak: the text lives as long as the event object does, and an event the writer did
 * not write (one read back from a journal, say) has none.
 */
const writtenJson = new WeakMap<object, string>();

export function rememberWrittenJson(event: object, json: string): void {
  writtenJson.set(event, json);
}

/** The JSON the journal writer wrote for this event object, if it wrote it. */
export function writtenJsonOf(event: object): string | undefined {
  return writtenJson.get(event);
}
