import { setTimeout as sleep } from "node:timers/promises";
import {
  catalogEntries,
  endLayersOf,
  isTerminalState,
  type LoopEvent,
  type LoopRunRecord,
  type LoopStore,
  refusalNow,
  successText,
} from "../loops/index.ts";
import { BUILTIN_CEILINGS, BUILTIN_DEFAULTS } from "../loops/model/limits.ts";
import type { ApiHandlers, ApiOptions, Handler } from "./api-types.ts";
import { lintRegistered, startRegistered } from "./loop-starts.ts";

/**
 * The handlers of the daemon's routes, one per entry of the route table (`events/daemon-routes.ts`):
 * each gets its request already validated and may answer only what the table declares for its route.
 */
export function apiHandlers(options: ApiOptions): ApiHandlers {
  const { store } = options;
  return {
    health: async () => ({ status: 200, body: { ok: true } }),
    listRuns: async ({ query }) => {
      const filter = { ...(query.loop !== undefined && { loopId: query.loop }), limit: 1000 };
      return { status: 200, body: await store.listRuns(filter) };
    },
    getRun: async ({ params }) => {
      const run = await store.getRun(params.id);
      if (run === undefined) return { status: 404, body: { error: `no run ${params.id}` } };
      return { status: 200, body: await runDetail(store, run) };
    },
    sendCommand: sendCommand(store),
    addNote: addNote(store),
    events: async (_request, context) => ({ status: 200, stream: follow(options, context) }),
    listLoops: async () => ({ status: 200, body: await loopsInfo(options) }),
    lintLoop: ({ params }) => lintRegistered(store, params.id),
    startRun: async ({ params, body }) => {
      if (options.starts === undefined) return { status: 404, body: { error: "this daemon starts no runs" } };
      const deps = { store, limitConfig: options.limitConfig ?? {}, ...options.starts };
      return startRegistered(deps, params.id, body);
    },
    metrics: async () => {
      if (options.metrics === undefined) return { status: 404, body: { error: "no metrics here" } };
      const page = await options.metrics();
      return { status: 200, body: page.body, contentType: page.contentType };
    },
  };
}

/** A run with its generations, inbox and, once it ended, its end layers in the six kinds. */
async function runDetail(store: LoopStore, run: LoopRunRecord) {
  const generations = await store.generations(run.id);
  return {
    run,
    generations,
    messages: await store.messages(run.id),
    endLayers: endLayersOf(run, generations.at(-1)),
  };
}

function sendCommand(store: LoopStore): Handler<"sendCommand"> {
  return async ({ params, body }) => {
    const run = await store.getRun(params.id);
    if (run === undefined) return { status: 404, body: { error: `no loop run ${params.id}` } };
    const command = {
      type: body.type,
      by: body.by ?? "api",
      ...(body.add !== undefined && { add: body.add }),
      ...(body.comment !== undefined && { comment: body.comment }),
    };
    // Refused now rather than at the run's next boundary, where the caller would never hear of it.
    const refused = refusalNow(run, command);
    if (refused !== undefined) return { status: 409, body: { error: `${body.type} refused: ${refused}` } };
    return { status: 202, body: { id: await store.addCommand(run.id, command, new Date().toISOString()) } };
  };
}

function addNote(store: LoopStore): Handler<"addNote"> {
  return async ({ params, body }) => {
    const run = await store.getRun(params.id);
    if (run === undefined) return { status: 404, body: { error: `no loop run ${params.id}` } };
    if (isTerminalState(run.state)) {
      const error = `note refused: the run ended ${run.state}, so no generation would read it`;
      return { status: 409, body: { code: "run-ended", error } };
    }
    const message = {
      runId: run.id,
      kind: "operator_note" as const,
      author: body.by ?? "api",
      text: body.text,
    };
    return {
      status: 201,
      body: { id: await store.addMessage({ ...message, createdAt: new Date().toISOString() }) },
    };
  };
}

async function loopsInfo(options: ApiOptions) {
  const config = options.limitConfig ?? {};
  const runs = await options.store.listRuns({ limit: 1000 });
  return {
    loops: await options.store.registeredLoops(),
    defaults: {
      delivery: { ...BUILTIN_DEFAULTS.delivery, ...config.defaults?.delivery },
      watch: { ...BUILTIN_DEFAULTS.watch, ...config.defaults?.watch },
    },
    ceilings: { ...BUILTIN_CEILINGS, ...config.ceilings },
    catalog: catalogEntries(runs, Date.now()).map((entry) => ({ ...entry, successText: successText(entry) })),
  };
}

/** The log after `after` (or the client's `Last-Event-ID`), then new entries as they are committed. */
async function* follow(
  options: ApiOptions,
  context: Parameters<Handler<"events">>[1],
  after = Number(context.raw.headers["last-event-id"]) || 0,
): AsyncGenerator<LoopEvent> {
  let seq = after;
  while (!context.signal.aborted) {
    for (const event of await options.store.events(seq, undefined, 500)) {
      yield event;
      seq = event.seq;
    }
    await sleep(options.streamPollMs ?? 250, undefined, { signal: context.signal }).catch(() => undefined);
  }
}
