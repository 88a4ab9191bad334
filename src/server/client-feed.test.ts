import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../journal/index.ts";
import { ClientFeed } from "./client-feed.ts";

const event = (seq: number): JournaledEvent =>
  ({
    v: 1,
    id: `e${seq}`,
    seq,
    timestamp: "2026-01-01T00:00:00.000Z",
    type: "info",
    data: { message: `${seq}` },
  }) as JournaledEvent;

/** A socket stand-in: `full` makes every send report a full socket until `drain()` is called. */
function target(journal: JournaledEvent[]) {
  const sent: number[] = [];
  let reads = 0;
  let full = false;
  let release: (() => void) | undefined;
  return {
    sent,
    reads: () => reads,
    fill: () => {
      full = true;
    },
    drain: () => {
      full = false;
      release?.();
    },
    send(e: JournaledEvent): Promise<void> | undefined {
      sent.push(e.seq);
      if (!full) return undefined;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    readSince(afterSeq: number) {
      reads += 1;
      return journal.filter((e) => e.seq > afterSeq);
    },
  };
}

describe("ClientFeed", () => {
  it("sends each event as it comes while the socket keeps up, and never one twice", () => {
    const socket = target([]);
    const feed = new ClientFeed(socket, 10, 2);
    for (const seq of [1, 2, 3, 4, 4, 5]) feed.offer(event(seq));
    assert.deepEqual(socket.sent, [3, 4, 5]);
    assert.equal(feed.draining, false);
  });

  it("queues while the socket is full and sends the queue in order once it drains", async () => {
    const socket = target([]);
    const feed = new ClientFeed(socket, 10, 0);
    socket.fill();
    feed.offer(event(1));
    feed.offer(event(2));
    feed.offer(event(3));
    assert.deepEqual(socket.sent, [1]);
    assert.equal(feed.draining, true);
    socket.drain();
    await feed.idle();
    assert.deepEqual(socket.sent, [1, 2, 3]);
    assert.equal(socket.reads(), 0);
  });

  it("past its bound, drops the queue and catches up from the journal: every event once, in order", async () => {
    const journal = Array.from({ length: 20 }, (_, i) => event(i + 1));
    const socket = target(journal);
    const feed = new ClientFeed(socket, 3, 0);
    socket.fill();
    for (const e of journal.slice(0, 12)) feed.offer(e);
    socket.drain();
    for (const e of journal.slice(12)) feed.offer(e);
    await feed.idle();
    assert.deepEqual(
      socket.sent,
      journal.map((e) => e.seq),
    );
    assert.ok(socket.reads() >= 1);
  });

  it("sends nothing more once stopped", async () => {
    const socket = target([]);
    const feed = new ClientFeed(socket, 10, 0);
    socket.fill();
    feed.offer(event(1));
    feed.offer(event(2));
    feed.stop();
    socket.drain();
    await feed.idle();
    feed.offer(event(3));
    assert.deepEqual(socket.sent, [1]);
  });
});
