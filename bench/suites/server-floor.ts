/**
 * The transport floor of suite `server`: what fanning a run's events out to 10 WebSocket clients costs
 * on this machine with none of our server in the way, so the server's own share of the overhead can be
 * told from the share any server would pay.
 *
 * A real no-server run's events are replayed codon by codon: each codon spins the CPU time the
 * no-server codon took in the same run (its process CPU, not its wall time), then that codon's events
 * (the bytes our server sends, one frame per event, or one `event.batch` frame per write) go to every
 * client through plain `ws` with the same corking (one write per client per `FLUSH_INTERVAL_MS`). The
 * clients run in another process and parse every frame, as ours do. Wall time per codon with the
 * clients over that without is the least overhead a server could reach here.
 *
 * The spin counts CPU time so that it stretches, as a run's codon does, when the clients' process takes
 * the CPU from it (2 cores: the run, the clients, the kernel's socket work). Until issue 32's twelfth
 * round it counted wall time, which a competing process does not stretch: that floor left the whole
 * cost of sharing the machine with the clients to our server's account.
 */
import { performance } from "node:perf_hooks";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { createEventSerializer, eventBatchFrames } from "../../src/server/frames.ts";
import { FLUSH_INTERVAL_MS } from "../../src/server/socket-writer.ts";
import { startClientsProcess } from "../lib/clients-process.ts";

export interface FloorArgs {
  /** The run's events in journal order. */
  readonly events: readonly JournaledEvent[];
  /** CPU milliseconds of one codon of the run without a server: each replayed codon spins this much CPU. */
  readonly codonCpuMs: number;
  readonly clients: number;
  readonly batchEvents: boolean;
  /** This file's process entry (`… raw-clients <json>` starts the clients). */
  readonly self: string;
}

interface Peer {
  readonly socket: WebSocket;
  readonly tcp: Duplex;
}

/**
 * Replays the events to `clients` plain WebSocket clients (none: the replay's own cost, the ratio's
 * denominator); resolves with the wall milliseconds per codon.
 */
export async function transportFloor(args: FloorArgs): Promise<number> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const peers: Peer[] = [];
  server.on("connection", (socket, request) => peers.push({ socket, tcp: request.socket }));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const clients =
    args.clients > 0
      ? await startClientsProcess(args.self, "raw-clients", {
          url: `ws://127.0.0.1:${port}`,
          count: args.clients,
        })
      : undefined;
  while (peers.length < args.clients) await new Promise((resolve) => setTimeout(resolve, 5));
  const fanOut = createFanOut(peers, args.batchEvents);
  const codons = codonsOf(args.events);
  const start = performance.now();
  for (const events of codons) {
    spinCpu(args.codonCpuMs);
    for (const bytes of events) fanOut.send(bytes);
    // A run yields to the event loop between codons; so does the replay, or nothing would be written.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const perCodon = (performance.now() - start) / Math.max(1, codons.length);
  fanOut.flush();
  for (const peer of peers) peer.socket.close();
  await clients?.exited;
  await new Promise((resolve) => server.close(resolve));
  return perCodon;
}

/** The events' bytes as the server sends them, grouped by codon (each group ends at a `codon.completed`). */
function codonsOf(events: readonly JournaledEvent[]): Buffer[][] {
  const serialize = createEventSerializer();
  const codons: Buffer[][] = [[]];
  for (const event of events) {
    codons.at(-1)?.push(serialize(event));
    if (event.type === "codon.completed") codons.push([]);
  }
  return codons.filter((codon) => codon.length > 0);
}

/** Sends to every peer with the server's corking: at most one write per peer per flush interval. */
function createFanOut(peers: readonly Peer[], batchEvents: boolean) {
  const batchFrame = eventBatchFrames({ now: Date.now, newId: () => "floor" });
  let pending: Buffer[] = [];
  let corked = false;
  let lastFlush = Number.NEGATIVE_INFINITY;
  const flush = (): void => {
    if (pending.length > 0) {
      const frame = batchFrame(pending);
      pending = [];
      for (const peer of peers) peer.socket.send(frame, { binary: false });
    }
    corked = false;
    lastFlush = performance.now();
    for (const peer of peers) peer.tcp.uncork();
  };
  const cork = (): void => {
    if (corked) return;
    corked = true;
    for (const peer of peers) peer.tcp.cork();
    const wait = lastFlush + FLUSH_INTERVAL_MS - performance.now();
    if (wait <= 0) process.nextTick(flush);
    else setTimeout(flush, wait);
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

/** Spins until the process has used `ms` more of CPU time: stands for a codon's work on the main thread. */
function spinCpu(ms: number): void {
  const start = process.cpuUsage();
  const budgetUs = ms * 1000;
  for (;;) {
    const used = process.cpuUsage(start);
    if (used.user + used.system >= budgetUs) return;
  }
}

/** The clients' process: plain `ws` clients that parse every frame; exits once all are closed. */
export async function rawClientsMain(args: { url: string; count: number }): Promise<void> {
  const sockets = await Promise.all(
    Array.from(
      { length: args.count },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(args.url);
          socket.on("message", (data) => JSON.parse(String(data)));
          socket.once("open", () => resolve(socket));
          socket.once("error", reject);
        }),
    ),
  );
  process.stdout.write("ready\n");
  await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once("close", resolve))));
}
