import assert from "node:assert/strict";
import { describe, it } from "node:test";
import WebSocket from "ws";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { connectClient } from "../../src/server/protocol-client.ts";
import { codon, hankOf, serveHank } from "./support.ts";

const loop = (iterations: number) =>
  hankOf([
    {
      type: "loop",
      id: "many",
      name: "many",
      terminateOn: { type: "iterationLimit", limit: iterations },
      codons: [codon("say", "@say hello")],
    },
  ]);

/** A bare socket that shakes hands with `batchEvents` and keeps every message it receives, parsed. */
async function rawBatchingClient(url: string): Promise<{ messages: Array<Record<string, unknown>> }> {
  const socket = new WebSocket(url);
  const messages: Array<Record<string, unknown>> = [];
  socket.on("message", (raw) => messages.push(JSON.parse(raw.toString()) as Record<string, unknown>));
  await new Promise((resolve) => socket.once("open", resolve));
  socket.send(JSON.stringify({ type: "handshake", data: { mode: "readonly", batchEvents: true } }));
  await new Promise((resolve) => socket.once("message", resolve));
  return { messages };
}

/** Waits (polling every 5 ms) until `condition` holds; the test's timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("live events in batches (handshake batchEvents)", () => {
  it("every event once, in journal order, in fewer messages; the protocol client hands them on one by one", async () => {
    const served = await serveHank(loop(200), { start: false });
    try {
      const raw = await rawBatchingClient(served.server.url);
      const client = await connectClient({ url: served.server.url, mode: "readonly", batchEvents: true });
      const unpacked: JournaledEvent[] = [];
      client.onFrame((frame) => {
        if (frame.kind === "event") unpacked.push(frame.event);
      });
      const plain = await served.connect("readonly");
      served.host.start(served.server.port);
      await served.host.ended;
      const seqs = served.journal().map((e) => e.seq);
      const last = seqs.at(-1) ?? 0;
      await plain.caughtUp(last);
      const batches = () => raw.messages.filter((m) => m.type === "event.batch");
      const batched = () => batches().flatMap((m) => (m.data as { events: JournaledEvent[] }).events);
      await until(() => batched().at(-1)?.seq === last && unpacked.at(-1)?.seq === last);
      assert.deepEqual(
        batched().map((e) => e.seq),
        seqs,
      );
      const count = batches().length;
      assert.ok(count < seqs.length / 2, `${count} batches for ${seqs.length} events`);
      assert.equal(
        raw.messages.some((m) => typeof m.seq === "number"),
        false,
        "no event travels alone",
      );
      assert.deepEqual(
        unpacked.map((e) => e.seq),
        seqs,
      );
      assert.deepEqual(plain.events(), served.journal());
      client.close();
    } finally {
      await served.remove();
    }
  });

  it("a server that closes when its run ends first hands every batching client the final events", async () => {
    const served = await serveHank(loop(3), { start: false });
    try {
      const raw = await rawBatchingClient(served.server.url);
      served.host.start(served.server.port);
      await served.host.ended;
      await served.server.close();
      const last = served.journal().at(-1);
      const received = raw.messages
        .filter((m) => m.type === "event.batch")
        .flatMap((m) => (m.data as { events: JournaledEvent[] }).events);
      assert.equal(received.at(-1)?.seq, last?.seq, "the last journaled event reached the client");
      assert.ok(
        received.some((e) => e.type === "state.transition" && e.data.transitionType === "RunCompleted"),
        "RunCompleted among them",
      );
    } finally {
      await served.remove();
    }
  });
});
