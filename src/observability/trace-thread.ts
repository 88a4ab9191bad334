import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { JournaledEvent } from "../events/events.ts";
import { type TraceEvent, traceEventOf } from "./trace-event.ts";
import type { FromTraceThread, ToTraceThread, TraceThreadInput } from "./trace-thread-messages.ts";

/** A traced run whose spans are built and exported on a thread of their own. */
export interface TraceThread {
  readonly onEvent: (event: JournaledEvent) => void;
  /** Ends the spans still open at `at`, waits for their export, then stops the thread; never rejects. */
  close(at: Date): Promise<void>;
}

/**
 * Events are sent in batches: a batch goes when it holds `BATCH_EVENTS`, or `BATCH_DELAY_MS` after its
 * first event (so a slow run's spans still reach the backend within the exporter's own delay), and
 * at close. One message per batch keeps the run's share to a projection and an array push per event.
 */
const BATCH_EVENTS = 64;
const BATCH_DELAY_MS = 250;

/**
 * Starts the tracing thread and waits until it is ready, or returns undefined when its entry is not
 * beside this module (a bundle made without it) or it cannot start: the caller then traces on the run's
 * thread. The thread never keeps the process alive, except while it starts and while `close` waits.
 */
export async function startTraceThread(input: TraceThreadInput): Promise<TraceThread | undefined> {
  const entry = traceWorkerEntry();
  const worker = entry === undefined ? undefined : spawnWorker(entry, input);
  if (worker === undefined) return undefined;
  let gone = false;
  worker.once("exit", () => {
    gone = true;
  });
  // A thread that fails traces nothing more; the run goes on (its error is not the run's).
  worker.on("error", () => undefined);
  await answerOrGone(worker, "ready");
  worker.unref();
  const send = (message: ToTraceThread) => {
    if (!gone) worker.postMessage(message);
  };
  const batches = eventBatches((json) => send({ kind: "events", json }));
  return {
    onEvent: (event) => {
      try {
        const traced = traceEventOf(event);
        if (traced !== undefined) batches.add(traced);
      } catch {
        // Tracing is best effort by contract: a fault here must not change the run.
      }
    },
    close: async (at) => {
      batches.flush();
      if (!gone) {
        worker.ref();
        const closed = answerOrGone(worker, "closed");
        send({ kind: "close", at: at.getTime() });
        await closed;
      }
      await worker.terminate();
    },
  };
}

/** Collects events and hands each batch on as JSON text (see `BATCH_EVENTS`). */
function eventBatches(post: (json: string) => void): { add(event: TraceEvent): void; flush(): void } {
  let batch: TraceEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0) return;
    post(JSON.stringify(batch));
    batch = [];
  };
  return {
    add: (event) => {
      batch.push(event);
      if (batch.length >= BATCH_EVENTS) flush();
      else timer ??= setTimeout(flush, BATCH_DELAY_MS).unref();
    },
    flush,
  };
}

/** Resolves once the thread answers `kind`, or exits (it failed). */
function answerOrGone(worker: Worker, kind: FromTraceThread["kind"]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      worker.off("message", onMessage);
      worker.off("exit", done);
      resolve();
    };
    const onMessage = (message: FromTraceThread) => {
      if (message.kind === kind) done();
    };
    worker.on("message", onMessage);
    worker.once("exit", done);
  });
}

/**
 * The thread's entry, beside this module with its extension: `.js` in dist/ (the library, and the CLI's
 * bundle, which emits it as an entry of its own), `.mjs` in the bench's bundles, `.ts` under tsx.
 */
function traceWorkerEntry(): URL | undefined {
  const here = import.meta.url;
  const entry = new URL(`./trace-worker${here.slice(here.lastIndexOf("."))}`, here);
  return existsSync(fileURLToPath(entry)) ? entry : undefined;
}

/**
 * A worker does not inherit tsx's loader (`--import tsx` applies to the main thread only), so under
 * the TypeScript sources the thread registers it before loading its entry. Undefined when no thread
 * can be started (no tsx under sources run another way, a resource limit): the run is then traced on
 * its own thread.
 */
function spawnWorker(entry: URL, input: TraceThreadInput): Worker | undefined {
  try {
    if (!entry.pathname.endsWith(".ts")) return new Worker(entry, { workerData: input });
    const tsx = import.meta.resolve("tsx/esm/api");
    const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
    return new Worker(bootstrap, { eval: true, workerData: input });
  } catch {
    return undefined;
  }
}
