import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { codon, hankOf, type ServedRun, serveHank } from "./support.ts";

/** A loop of quick codons then a codon that holds the run (cancelled when the test ends). */
const LONG = hankOf([
  {
    type: "loop",
    id: "many",
    name: "many",
    terminateOn: { type: "iterationLimit", limit: 12 },
    codons: [codon("say", "@say hello")],
  },
  codon("hold", "@sleep 600000"),
]);

/** A socket that skips the client library: frames are queued and read in order with `next()`. */
interface RawSocket {
  readonly socket: WebSocket;
  readonly frames: Record<string, unknown>[];
  next(): Promise<Record<string, unknown>>;
}

function rawSocket(url: string): Promise<RawSocket> {
  const socket = new WebSocket(url);
  const frames: Record<string, unknown>[] = [];
  let read = 0;
  let wake: (() => void) | undefined;
  socket.on("message", (data) => {
    frames.push(JSON.parse(data.toString()));
    wake?.();
  });
  const next = async (): Promise<Record<string, unknown>> => {
    while (read >= frames.length) await new Promise<void>((resolve) => (wake = resolve));
    return frames[read++] as Record<string, unknown>;
  };
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve({ socket, frames, next }));
    socket.once("error", reject);
  });
}

describe("the handshake", () => {
  let served: ServedRun;
  before(async () => {
    served = await serveHank(LONG);
    const watcher = await served.connect("readonly");
    await watcher.waitForEvent(
      "codon.started",
      (e) => e.type === "codon.started" && e.data.codonId === "hold",
    );
  });
  after(() => served.remove());

  it("answers readonly without history: clientId, mode, no events, the journal's size; then server.ready", async () => {
    const client = await served.connect("readonly");
    const { clientId, mode, eventHistory, totalEvents } = client.client;
    assert.match(clientId, /^[0-9a-f-]{36}$/);
    assert.equal(mode, "readonly");
    assert.deepEqual(eventHistory, []);
    assert.equal(totalEvents, served.journal().length);
    const ready = await client.waitForUnjournaled("server.ready");
    assert.equal(ready.executionPath, served.exec);
    assert.equal(ready.agentRootPath, `${served.exec}/agentRoot`);
    assert.equal(ready.port, served.server.port);
    assert.equal(ready.serverVersion, "0.0.0-test");
  });

  it("sends the last 50 journaled events newest first when asked, in both modes", async () => {
    const client = await served.connect("readandwrite", { sendPreviousEvents: true });
    const journal = served.journal();
    assert.equal(client.client.mode, "readandwrite");
    assert.equal(client.client.totalEvents, journal.length);
    assert.ok(journal.length > 50);
    const expected = journal.slice(-50).reverse();
    assert.deepEqual(
      client.client.eventHistory.map((e: JournaledEvent) => e.seq),
      expected.map((e) => e.seq),
    );
    assert.deepEqual(client.client.eventHistory[0], expected[0]);
  });

  it("refuses commands before the handshake and broadcasts nothing to a client that has not shaken hands", async () => {
    const raw = await rawSocket(served.server.url);
    const { socket, frames } = raw;
    socket.send(JSON.stringify({ id: "1", type: "ping" }));
    const reply = await raw.next();
    assert.equal(reply.type, "error");
    assert.deepEqual(reply.data, { message: "Handshake required before sending commands", fatal: false });
    const other = await served.connect("readandwrite");
    other.send("ping.broadcast");
    await other.waitForUnjournaled("pong");
    socket.send(JSON.stringify({ type: "handshake", data: { mode: "readonly" } }));
    const response = await raw.next();
    assert.equal(response.type, "handshake.response");
    await raw.next();
    assert.deepEqual(
      frames.map((frame) => (frame as { type: string }).type),
      ["error", "handshake.response", "server.ready"],
    );
    socket.close();
  });

  it("answers malformed frames with an error to the sender only and keeps serving", async () => {
    const client = await served.connect("readandwrite");
    const bystander = await served.connect("readonly");
    const ws = await rawSocket(served.server.url);
    ws.socket.send(JSON.stringify({ type: "handshake", data: { mode: "readonly" } }));
    await ws.next();
    await ws.next();
    const replies: Record<string, unknown>[] = [];
    for (const text of [
      "{not json",
      "[1,2]",
      JSON.stringify({ type: "ping" }),
      JSON.stringify({ id: "x", type: "codon.fly" }),
      JSON.stringify({ id: "x", type: "codon.start", data: {} }),
    ]) {
      ws.socket.send(text);
      replies.push(await ws.next());
    }
    const messages = replies.map((r) => (r.data as { message: string }).message);
    assert.match(messages[0] ?? "", /^Command execution failed: /);
    assert.deepEqual(messages.slice(1), [
      "Invalid command format",
      "Invalid command format",
      "Invalid command format",
      "Invalid command format",
    ]);
    assert.equal(
      (replies[4]?.data as { context?: string } | undefined)?.context,
      "data.codonId: Invalid input: expected string, received undefined",
    );
    ws.socket.send(Buffer.from([1, 2, 3]));
    assert.match(((await ws.next()).data as { message: string }).message, /Binary frames are not supported/);
    ws.socket.send(JSON.stringify({ id: "x", type: "ping", data: { pad: "x".repeat(70_000) } }));
    assert.match(
      ((await ws.next()).data as { message: string }).message,
      /^Message too large: \d+ bytes \(the limit is 65536\)$/,
    );
    const closed = new Promise<number>((resolve) => ws.socket.once("close", (code) => resolve(code)));
    ws.socket.send("x".repeat(1_100_000));
    assert.equal(await closed, 1009);
    client.send("ping");
    await client.waitForUnjournaled("pong");
    assert.equal(bystander.unjournaled("error").length, 0);
    assert.equal(served.host.status.running?.id, "hold");
  });

  it("answers a plain HTTP request with a 400 JSON hint", async () => {
    const response = await fetch(`http://127.0.0.1:${served.server.port}/anything`);
    assert.equal(response.status, 400);
    const body = (await response.json()) as Record<string, string>;
    assert.equal(body.error, "HTTP API not available");
    assert.equal(body.websocket, `ws://localhost:${served.server.port}`);
    assert.match(body.help ?? "", /handshake/);
  });
});
