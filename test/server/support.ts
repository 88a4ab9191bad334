import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import { type JournaledEvent, readSince } from "../../src/journal/index.ts";
import type { ExecutionOptions } from "../../src/runner/index.ts";
import {
  type ClientMode,
  type HankServer,
  LiveExecution,
  type LiveExecutionOptions,
  setUpAccess,
  startServer,
} from "../../src/server/index.ts";
import { connectClient, type ProtocolClient, type ServerFrame } from "../../src/server/protocol-client.ts";

/** How long a test waits for a frame before failing (a bound on a broken test, never a pause). */
const WAIT_MS = 20_000;

export interface ServedRun {
  readonly dir: string;
  readonly exec: string;
  readonly host: LiveExecution;
  readonly server: HankServer;
  connect(mode: ClientMode, options?: { sendPreviousEvents?: boolean }): Promise<TestClient>;
  /** The execution's journal, oldest first, as the journal reader gives it (the form clients get). */
  journal(): JournaledEvent[];
  /** Ends the host (shutdown), closes the server, removes the temp directory. */
  remove(): Promise<void>;
}

export interface ServeOptions {
  readonly stayOpen?: boolean;
  readonly headless?: boolean;
  readonly execution?: Partial<ExecutionOptions>;
  readonly serverOptions?: {
    readonly maxClientQueue?: number;
    readonly clientBufferBytes?: number;
    readonly token?: string;
    /** Serve the web app from here (`/ui/`). */
    readonly webAssetsDir?: string;
  };
  /** Start the run once the server listens (default). False: the test starts it. */
  readonly start?: boolean;
  /**
   * Checkpoint with git, as the CLI does (rollback tests). Default: the in-memory checkpointer, the same
   * contract without git's process start-ups, which dominate a short test run's time.
   */
  readonly git?: boolean;
}

/** A real run of `hank` (scripted agent, real git, real journal) served on 127.0.0.1, port 0. */
export async function serveHank(hank: unknown, options: ServeOptions = {}): Promise<ServedRun> {
  const dir = mkdtempSync(join(tmpdir(), "hw-server-"));
  const hankDir = join(dir, "hank");
  mkdirSync(hankDir);
  writeFileSync(join(hankDir, "hank.json"), JSON.stringify(hank, null, 2));
  const exec = join(dir, "exec");
  const execution: ExecutionOptions = {
    hank: hankDir,
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(dir, "executions"),
    },
    model: "scripted",
    execution: exec,
    headless: options.headless ?? false,
    ...(options.git !== true && {
      checkpointer: (layout, clock) => createMemoryCheckpointer({ workTree: layout.agentRoot, clock }),
    }),
    ...options.execution,
  };
  const hostOptions: LiveExecutionOptions = { execution, stayOpen: options.stayOpen ?? false };
  const host = new LiveExecution(hostOptions);
  const access = setUpAccess({
    ...(options.serverOptions?.token !== undefined && { token: options.serverOptions.token }),
  });
  if (!access.ok) throw new Error(access.message);
  const server = await startServer({
    execution: host,
    access: access.policy,
    serverVersion: "0.0.0-test",
    ...(options.serverOptions?.maxClientQueue !== undefined && {
      maxClientQueue: options.serverOptions.maxClientQueue,
    }),
    ...(options.serverOptions?.clientBufferBytes !== undefined && {
      clientBufferBytes: options.serverOptions.clientBufferBytes,
    }),
    ...(options.serverOptions?.webAssetsDir !== undefined && {
      webAssetsDir: options.serverOptions.webAssetsDir,
    }),
  });
  if (options.start !== false) host.start(server.port);
  const clients: TestClient[] = [];
  return {
    dir,
    exec,
    host,
    server,
    async connect(mode, connectOptions = {}) {
      const client = await TestClient.connect(server.url, mode, connectOptions.sendPreviousEvents ?? false);
      clients.push(client);
      return client;
    },
    journal() {
      return readSince(join(exec, ".hankweave", "events", "events.jsonl"), 0).events;
    },
    async remove() {
      for (const client of clients) client.close();
      // A graceful shutdown, so the run has stopped writing into `dir` before it is removed; forced if
      // it has not wound down within 10 s.
      host.shutdown("test over");
      const force = setTimeout(() => host.forceShutdown("test over"), 10_000);
      await host.ended;
      clearTimeout(force);
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A protocol client that records every frame and can wait for one. */
export class TestClient {
  readonly frames: ServerFrame[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(readonly client: ProtocolClient) {
    client.onFrame((frame) => {
      this.frames.push(frame);
      for (const wake of [...this.#waiters]) wake();
    });
  }

  static async connect(url: string, mode: ClientMode, sendPreviousEvents: boolean): Promise<TestClient> {
    return new TestClient(await connectClient({ url, mode, sendPreviousEvents }));
  }

  /** The journaled events received, in arrival order. */
  events(): JournaledEvent[] {
    return this.frames.flatMap((frame) => (frame.kind === "event" ? [frame.event] : []));
  }

  /** Unjournaled frames of one type (`error`, `pong`, `history.batch`...). */
  unjournaled(type: string): Record<string, unknown>[] {
    return this.frames.flatMap((frame) =>
      frame.kind === "unjournaled" && frame.type === type ? [frame.data] : [],
    );
  }

  send(type: Parameters<ProtocolClient["send"]>[0], data?: Record<string, unknown>): string {
    return this.client.send(type, data);
  }

  /** Resolves with the first frame (from `from` on) that matches; rejects after a generous bound. */
  waitFor(match: (frame: ServerFrame) => boolean, from = 0): Promise<ServerFrame> {
    return new Promise((resolve, reject) => {
      let scanned = from;
      const check = (): boolean => {
        let found: ServerFrame | undefined;
        while (found === undefined && scanned < this.frames.length) {
          const frame = this.frames[scanned++] as ServerFrame;
          if (match(frame)) found = frame;
        }
        if (found === undefined) return false;
        this.#waiters.delete(wake);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const wake = (): void => {
        check();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        const seen = this.frames
          .slice(-12)
          .map((f) =>
            f.kind === "event" ? `${f.event.seq} ${f.event.type}` : f.kind === "view" ? "view" : f.type,
          );
        reject(new Error(`no matching frame within ${WAIT_MS} ms; the last frames: ${seen.join(", ")}`));
      }, WAIT_MS);
      if (!check()) this.#waiters.add(wake);
    });
  }

  waitForEvent(
    type: string,
    match: (event: JournaledEvent) => boolean = () => true,
  ): Promise<JournaledEvent> {
    return this.waitFor(
      (frame) => frame.kind === "event" && frame.event.type === type && match(frame.event),
    ).then((frame) => (frame as Extract<ServerFrame, { kind: "event" }>).event);
  }

  /** Resolves once this client has received the journaled event `seq` (or a later one). */
  caughtUp(seq: number): Promise<ServerFrame> {
    return this.waitFor((frame) => frame.kind === "event" && frame.event.seq >= seq);
  }

  waitForUnjournaled(type: string, from = 0): Promise<Record<string, unknown>> {
    return this.waitFor((frame) => frame.kind === "unjournaled" && frame.type === type, from).then(
      (frame) => (frame as Extract<ServerFrame, { kind: "unjournaled" }>).data,
    );
  }

  close(): void {
    this.client.close();
  }
}

/** A scripted codon. */
export function codon(
  id: string,
  script: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    name: id.toUpperCase(),
    model: "scripted",
    continuationMode: "fresh",
    promptText: script,
    ...fields,
  };
}

export function hankOf(items: readonly unknown[]): unknown {
  return { meta: { name: "server test", version: "1" }, hank: items };
}
