/**
 * The transport floor of suite `server`: what fanning a run's events out to 10 WebSocket clients costs
 * on this machine with none of our server in the way, so the server's own share of the overhead can be
 * told from the share any server would pay.
 *
 * The floor is the same run as the other cases (`runExecution`, same hank, same journal), with a sync
 * listener in place of our server: each published event's JSON (the text the journal writer already
 * produced) is encoded to UTF-8 once, then sent to every client through plain `ws` with the server's
 * corking (the server's `WriteClock`: one write per client per 8 ms), one frame per event or one `event.batch`
 * frame per write. The clients are the measured cases' own, in another process.
 *
 * Until issue 32's thirteenth round the floor replayed a finished run's events around CPU spins as
 * long as its codons. A spin does no I/O, so it missed what the clients' process does to a real run on
 * two cores: each codon's file-system calls wait for a thread the clients' parsing keeps off the CPU.
 * Profiles showed our server's CPU overhead at the replay floor's while its wall overhead was twice
 * that: the replay left the machine's sharing to our server's account.
 */
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { type JournaledEvent, writtenJsonOf } from "../../src/journal/index.ts";
import { eventBatchParts } from "../../src/server/frames.ts";
import { WriteClock } from "../../src/server/write-clock.ts";
import { startClientsProcess } from "../lib/clients-process.ts";

const HANDSHAKE_RESPONSE = JSON.stringify({
  type: "handshake.response",
  data: { clientId: "floor", mode: "readonly", eventHistory: [], totalEvents: 0 },
});

interface Peer {
  readonly socket: WebSocket;
  readonly tcp: Duplex;
}

/** A plain `ws` server with its clients connected, and the fan-out that sends them a run's events. */
export interface PlainFanOut {
  /** A published event (a sync listener): its JSON encoded once, then sent to every client. */
  readonly send: (event: JournaledEvent) => void;
  /** Flushes, closes every client and the server; resolves once the clients' process has exited. */
  close(): Promise<void>;
}

/**
 * Starts a plain `ws` server on loopback and `clients` clients in another process (`self`, mode
 * `clients`: the very clients the measured cases run, so both sides of the comparison parse and record
 * the same); resolves once every client is connected. The server's one word of protocol is the
 * answer to each client's handshake, which those clients wait for.
 */
export async function startPlainFanOut(args: {
  readonly clients: number;
  readonly batchEvents: boolean;
  readonly self: string;
}): Promise<PlainFanOut> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const peers: Peer[] = [];
  server.on("connection", (socket, request) => {
    peers.push({ socket, tcp: request.socket });
    socket.once("message", () => socket.send(HANDSHAKE_RESPONSE));
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const clients = await startClientsProcess(args.self, "clients", {
    url: `ws://127.0.0.1:${port}`,
    count: args.clients,
    batchEvents: args.batchEvents,
  });
  while (peers.length < args.clients) await new Promise((resolve) => setTimeout(resolve, 5));
  const fanOut = createFanOut(peers, args.batchEvents);
  return {
    send: (event) => fanOut.send(Buffer.from(writtenJsonOf(event) ?? JSON.stringify(event), "utf8")),
    async close() {
      fanOut.flush();
      for (const peer of peers) peer.socket.close();
      await clients.exited;
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sends to every peer with the server's corking: at most one write per peer per flush interval. */
function createFanOut(peers: readonly Peer[], batchEvents: boolean) {
  const batchParts = eventBatchParts({ now: Date.now, newId: () => "floor" });
  const clock = new WriteClock();
  let pending: Buffer[] = [];
  let corked = false;
  const flush = (): void => {
    if (pending.length > 0) {
      const frame = Buffer.concat(batchParts(pending));
      pending = [];
      for (const peer of peers) peer.socket.send(frame, { binary: false });
    }
    corked = false;
    for (const peer of peers) peer.tcp.uncork();
  };
  const cork = (): void => {
    if (corked) return;
    corked = true;
    for (const peer of peers) peer.tcp.cork();
    clock.request(flush);
  };
  return {
    send(bytes: Buffer): void {
      cork();
      if (batchEvents) pending.push(bytes);
      else for (const peer of peers) peer.socket.send(bytes, { binary: false });
    },
    flush,
  };
}
