import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleJournaled } from "../../events/event-samples.ts";
import type { JournaledEvent } from "../../events/events.ts";
import { openProtocolStream, type SocketLike, type StreamStatus } from "./protocol-stream.ts";

type Listener = (event: never) => void;

/**
 * A socket whose far end is the test, playing the server: it sees what the client sent and answers
 * frames of its choosing.
 */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  readonly sent: Array<{ type: string; data?: Record<string, unknown> }> = [];
  readonly #listeners = new Map<string, Listener[]>();

  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as { type: string; data?: Record<string, unknown> });
  }

  close(code = 1000, reason = ""): void {
    this.readyState = 3;
    this.#emit("close", { code, reason });
  }

  open(): void {
    this.readyState = 1;
    this.#emit("open", {});
  }

  answer(frame: Record<string, unknown>): void {
    this.#emit("message", { data: JSON.stringify(frame) });
  }

  historySyncs(): unknown[] {
    return this.sent.filter((frame) => frame.type === "history.sync").map((frame) => frame.data?.afterSeq);
  }

  #emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
}

function eventAt(seq: number): JournaledEvent {
  return sampleJournaled("info", seq);
}

function harness(reconnect: boolean) {
  const sockets: ScriptedSocket[] = [];
  const seqs: number[] = [];
  const statuses: StreamStatus[] = [];
  const stream = openProtocolStream({
    url: "ws://test",
    mode: "readonly",
    reconnect,
    openSocket: () => {
      const socket = new ScriptedSocket();
      sockets.push(socket);
      return socket;
    },
    onEvent: (event) => seqs.push(event.seq),
    onStatus: (status) => statuses.push(status),
  });
  const latest = (): ScriptedSocket => {
    const socket = sockets.at(-1);
    if (socket === undefined) throw new Error("no socket");
    return socket;
  };
  return { stream, sockets, seqs, statuses, latest };
}

describe("the protocol stream", () => {
  it("history then live, interleaved, in seq order, each event once", async () => {
    const { stream, seqs, statuses, latest } = harness(false);
    const socket = latest();
    socket.open();
    assert.deepEqual(socket.sent[0], {
      type: "handshake",
      data: { mode: "readonly", sendPreviousEvents: false, batchEvents: true },
    });
    socket.answer({ type: "handshake.response", data: {} });
    await stream.handshaken;
    assert.deepEqual(socket.historySyncs(), [0]);
    // A live batch arrives while the history streams: held until the history reaches it.
    socket.answer({ type: "event.batch", data: { events: [eventAt(4), eventAt(5)] } });
    socket.answer({ type: "history.batch", data: { events: [eventAt(1), eventAt(2)], hasMore: true } });
    socket.answer({ type: "history.batch", data: { events: [eventAt(3), eventAt(4)], hasMore: false } });
    socket.answer({ ...eventAt(5) });
    socket.answer({ ...eventAt(6) });
    assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(statuses, ["syncing", "live"]);
    assert.deepEqual(socket.historySyncs(), [0], "no hole, no second request");
  });

  it("fills a hole in the live sequence by asking for the history after the last event it holds", async () => {
    const { stream, seqs, latest } = harness(false);
    const socket = latest();
    socket.open();
    socket.answer({ type: "handshake.response", data: {} });
    await stream.handshaken;
    socket.answer({ type: "history.batch", data: { events: [eventAt(1)], hasMore: false } });
    socket.answer({ type: "event.batch", data: { events: [eventAt(4)] } });
    assert.deepEqual(seqs, [1]);
    assert.deepEqual(socket.historySyncs(), [0, 1], "asked for what follows seq 1");
    socket.answer({
      type: "history.batch",
      data: { events: [eventAt(2), eventAt(3), eventAt(4)], hasMore: false },
    });
    assert.deepEqual(seqs, [1, 2, 3, 4]);
  });

  it("reconnects after a lost connection and resumes after its last seq; without reconnect the first close ends it", async () => {
    const { stream, seqs, sockets, latest } = harness(true);
    latest().open();
    latest().answer({ type: "handshake.response", data: {} });
    latest().answer({ type: "history.batch", data: { events: [eventAt(1), eventAt(2)], hasMore: false } });
    latest().close(1006, "lost");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(sockets.length, 2, "a second socket was opened");
    latest().open();
    latest().answer({ type: "handshake.response", data: {} });
    assert.deepEqual(latest().historySyncs(), [2]);
    latest().answer({ type: "history.batch", data: { events: [eventAt(2), eventAt(3)], hasMore: false } });
    assert.deepEqual(seqs, [1, 2, 3]);
    stream.close();
    assert.deepEqual(await stream.ended, { code: 1000, reason: "client done" });

    const once = harness(false);
    once.latest().close(1006, "refused");
    await assert.rejects(once.stream.handshaken, /refused/);
    assert.deepEqual(await once.stream.ended, { code: 1006, reason: "refused" });
    assert.equal(once.sockets.length, 1);
  });
});

describe("a paged protocol stream", () => {
  function paged() {
    const socket = new ScriptedSocket();
    const seqs: number[] = [];
    const statuses: StreamStatus[] = [];
    const pages: Array<{ kind: string; seqs: number[]; view: number | undefined; hasOlder: boolean }> = [];
    const stream = openProtocolStream({
      url: "ws://test",
      mode: "readonly",
      reconnect: false,
      history: "paged",
      onStatus: (status) => statuses.push(status),
      historyBatch: 3,
      openSocket: () => socket,
      onEvent: (event) => seqs.push(event.seq),
      onPage: (page) =>
        pages.push(
          page.kind === "newest"
            ? { kind: page.kind, seqs: [], view: page.view?.seq, hasOlder: page.hasOlder }
            : {
                kind: page.kind,
                seqs: page.events.map((e) => e.seq),
                view: undefined,
                hasOlder: page.hasOlder,
              },
        ),
    });
    socket.open();
    socket.answer({ type: "handshake.response", data: { clientId: "c", mode: "readonly" } });
    return { socket, seqs, pages, stream, statuses };
  }
  const view = (seq: number) => ({ seq, state: {}, activity: { live: false } });
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => eventAt(from + i));

  it("asks for the newest page, hands on its view, then its events and the live ones in order", () => {
    const { socket, seqs, pages } = paged();
    assert.deepEqual(socket.sent.at(-1), { ...socket.sent.at(-1), type: "history.page", data: {} });
    // A live event that overtook the page waits; one the view already holds is dropped.
    socket.answer({ type: "event.batch", data: { events: [eventAt(10), eventAt(13)] } });
    socket.answer({ type: "history.page", data: { view: view(9), events: range(10, 12), hasOlder: true } });
    assert.deepEqual(pages, [{ kind: "newest", seqs: [], view: 9, hasOlder: true }]);
    assert.deepEqual(seqs, [10, 11, 12, 13]);
    assert.deepEqual(socket.historySyncs(), []);
  });

  it("holds the run's first live events until the newest page, then goes live (a run starting as it connects)", () => {
    const { socket, seqs, pages, statuses } = paged();
    // The run journals its first events after the handshake and before the page is answered.
    socket.answer({ type: "event.batch", data: { events: [eventAt(1), eventAt(2)] } });
    assert.deepEqual(seqs, [], "nothing is handed on before the page's view is");
    socket.answer({ type: "history.page", data: { events: range(1, 3), hasOlder: false } });
    assert.deepEqual(pages, [{ kind: "newest", seqs: [], view: undefined, hasOlder: false }]);
    assert.deepEqual(seqs, [1, 2, 3]);
    assert.equal(statuses.at(-1), "live");
    socket.answer({ type: "event.batch", data: { events: [eventAt(4)] } });
    assert.deepEqual(seqs, [1, 2, 3, 4]);
  });

  it("asks for the newest page again when live events show history it has no page for", () => {
    const { socket, seqs, pages } = paged();
    // A server whose execution is not open yet has nothing to page.
    socket.answer({ type: "history.page", data: { events: [], hasOlder: false } });
    socket.answer({ type: "event.batch", data: { events: [eventAt(41)] } });
    assert.deepEqual(socket.sent.at(-1)?.type, "history.page");
    assert.deepEqual(socket.sent.at(-1)?.data, {});
    socket.answer({ type: "history.page", data: { view: view(38), events: range(39, 40), hasOlder: true } });
    assert.deepEqual(seqs, [39, 40, 41]);
    assert.deepEqual(
      pages.map((page) => [page.kind, page.view]),
      [
        ["newest", undefined],
        ["newest", 38],
      ],
    );
  });

  it("asks for older pages before the oldest event it has, until there are none", () => {
    const { socket, pages, stream } = paged();
    socket.answer({ type: "history.page", data: { view: view(6), events: range(7, 8), hasOlder: true } });
    assert.equal(stream.loadOlder(), true);
    assert.equal(stream.loadOlder(), false, "one older page at a time");
    assert.deepEqual(socket.sent.at(-1)?.data, { beforeSeq: 7, limit: 3 });
    socket.answer({ type: "history.page", data: { events: range(4, 6), hasOlder: true } });
    assert.equal(stream.loadOlder(), true);
    assert.deepEqual(socket.sent.at(-1)?.data, { beforeSeq: 4, limit: 3 });
    socket.answer({ type: "history.page", data: { events: range(1, 3), hasOlder: false } });
    assert.equal(stream.loadOlder(), false);
    assert.deepEqual(
      pages.map((page) => [page.kind, page.seqs, page.hasOlder]),
      [
        ["newest", [], true],
        ["older", [4, 5, 6], true],
        ["older", [1, 2, 3], false],
      ],
    );
  });
});
