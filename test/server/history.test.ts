import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type JournaledEvent, JournalWriter } from "../../src/journal/index.ts";
import { codon, hankOf, type ServedRun, serveHank, type TestClient } from "./support.ts";

const runCompleted = (e: JournaledEvent) =>
  e.type === "state.transition" && e.data.transitionType === "RunCompleted";

function loop(iterations: number): unknown {
  return hankOf([
    {
      type: "loop",
      id: "many",
      name: "many",
      terminateOn: { type: "iterationLimit", limit: iterations },
      codons: [codon("say", "@say hello")],
    },
  ]);
}

type Batch = { events: JournaledEvent[]; hasMore: boolean };

/** Sends `history.sync` and collects its batches up to the one that says `hasMore: false`. */
async function sync(client: TestClient, data?: Record<string, unknown>): Promise<Batch[]> {
  const mark = client.frames.length;
  client.send("history.sync", data);
  await client.waitFor(
    (f) => f.kind === "unjournaled" && f.type === "history.batch" && f.data.hasMore === false,
    mark,
  );
  return client.frames
    .slice(mark)
    .flatMap((f) =>
      f.kind === "unjournaled" && f.type === "history.batch" ? [f.data as unknown as Batch] : [],
    );
}

describe("history.sync", () => {
  let served: ServedRun;
  before(async () => {
    served = await serveHank(loop(3), { stayOpen: true });
    const client = await served.connect("readonly");
    await client.waitForEvent("state.transition", runCompleted);
  });
  after(() => served.remove());

  it("streams the whole journal to the requester, one event per batch, oldest first, the last with hasMore false", async () => {
    const client = await served.connect("readonly");
    const bystander = await served.connect("readonly");
    const batches = await sync(client, { cursor: "ignored", limit: 2 });
    const journal = served.journal();
    assert.equal(batches.length, journal.length);
    assert.ok(batches.every((b) => b.events.length === 1));
    assert.deepEqual(
      batches.map((b) => b.events[0]),
      journal,
    );
    assert.deepEqual(
      batches.map((b) => b.hasMore),
      [...journal.map(() => true).slice(1), false],
    );
    assert.deepEqual(bystander.unjournaled("history.batch"), []);
    const tail = await sync(client, { afterSeq: journal.length - 2 });
    assert.deepEqual(
      tail.map((b) => b.events[0]?.seq),
      [journal.length - 1, journal.length],
    );
    const none = await sync(client, { afterSeq: journal.length });
    assert.deepEqual(none, [{ events: [], hasMore: false }]);
  });

  it("streams a journal of more than 100,000 events in order without reading it whole", async () => {
    const before = served.journal().length;
    const writer = JournalWriter.open(`${served.exec}/.hankweave/events/events.jsonl`);
    try {
      for (let block = 0; block < 100; block++) {
        writer.appendAll(
          Array.from({ length: 1000 }, (_, i) => ({
            type: "info" as const,
            data: { message: `line ${block * 1000 + i}` },
          })),
        );
      }
    } finally {
      writer.close();
    }
    const total = before + 100_000;
    const client = await served.connect("readonly");
    assert.equal(client.client.totalEvents, total);
    const batches = await sync(client);
    assert.equal(batches.length, total);
    let expected = 1;
    for (const batch of batches) assert.equal(batch.events[0]?.seq, expected++);
    assert.equal(batches.at(-1)?.hasMore, false);
    assert.equal(batches.filter((b) => !b.hasMore).length, 1);
  });
});

describe("many clients and reconnects", () => {
  it("twenty clients at once each receive every event of the run exactly once, in journal order", async () => {
    const served = await serveHank(loop(20), { start: false });
    try {
      const clients = await Promise.all(
        Array.from({ length: 20 }, (_, i) => served.connect(i % 2 === 0 ? "readonly" : "readandwrite")),
      );
      served.host.start(served.server.port);
      await served.host.ended;
      const seqs = served.journal().map((e) => e.seq);
      // The run's last events may still be on their way once it has ended.
      await Promise.all(clients.map((client) => client.caughtUp(seqs.at(-1) ?? 0)));
      for (const client of clients)
        assert.deepEqual(
          client.events().map((e) => e.seq),
          seqs,
        );
      assert.equal(served.server.clientCount, 20);
    } finally {
      await served.remove();
    }
  });

  it("a client that reconnects mid-run loses and duplicates nothing: history, live events and history.sync by seq", async () => {
    const served = await serveHank(loop(300));
    try {
      const first = await served.connect("readonly");
      const observer = await served.connect("readonly");
      await first.waitForEvent("codon.completed", (e) => e.seq >= 100);
      first.close();
      const seen = first.events();
      const lastSeen = seen.at(-1)?.seq ?? 0;
      // The run goes on while the first client is away (more than one history of 50 events).
      await observer.caughtUp(lastSeen + 60);
      const second = await served.connect("readonly", { sendPreviousEvents: true });
      const { eventHistory, totalEvents } = second.client;
      assert.ok(totalEvents > lastSeen, "the run went on while the first client was away");
      const gap = await sync(second, { afterSeq: lastSeen });
      await served.host.ended;
      await second.caughtUp(served.journal().at(-1)?.seq ?? 0);
      const live = second.events();
      assert.ok(live.length > 0, "events arrived live after the reconnect");
      assert.equal(live[0]?.seq, totalEvents + 1, "live events start right after the handshake's total");
      assert.deepEqual(
        live.map((e) => e.seq),
        live.map((_, i) => totalEvents + 1 + i),
      );
      const bySeq = new Map<number, JournaledEvent>();
      for (const event of [...seen, ...eventHistory, ...gap.flatMap((b) => b.events), ...live])
        bySeq.set(event.seq, event);
      assert.deepEqual(
        [...bySeq.values()].sort((a, b) => a.seq - b.seq),
        served.journal(),
      );
    } finally {
      await served.remove();
    }
  });

  it("a client whose socket is full and whose queue overflows is caught up from the journal: every event once, in order", async () => {
    const served = await serveHank(loop(30), {
      start: false,
      serverOptions: { maxClientQueue: 2, clientBufferBytes: 1 },
    });
    try {
      const client = await served.connect("readonly");
      served.host.start(served.server.port);
      await served.host.ended;
      await client.caughtUp(served.journal().at(-1)?.seq ?? 0);
      assert.deepEqual(
        client.events().map((e) => e.seq),
        served.journal().map((e) => e.seq),
      );
    } finally {
      await served.remove();
    }
  });
});
