import { useEffect, useState } from "react";
import { type AnswerOf, type RequestOf, routeUrl, type SuccessOf } from "../../events/daemon-route-types.ts";
import { DAEMON_ROUTES, type RouteName } from "../../events/daemon-routes.ts";

/**
 * Talks to the daemon that served the page, with the page's token (`/ui/?token=`): the routes of the
 * daemon's route table (`events/daemon-routes.ts`), typed from it, with `Authorization: Bearer` (the
 * event stream too: it is read with fetch, not EventSource). The daemon validates what it is sent;
 * the page trusts the table's types for what comes back.
 */

function pageToken(): string {
  return new URLSearchParams(location.search).get("token") ?? "";
}

/** A refusal: the HTTP status, the daemon's sentence, its code when it gave one, and the whole answer. */
export class DaemonError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly answer: unknown,
  ) {
    super(message);
  }
}

/** Calls route `name`; resolves with its success answer, rejects with a `DaemonError` for any other. */
export async function callDaemon<N extends RouteName>(name: N, request: RequestOf<N>): Promise<SuccessOf<N>> {
  const route = DAEMON_ROUTES[name];
  const headers: Record<string, string> = { authorization: `Bearer ${pageToken()}` };
  const body = "body" in request ? JSON.stringify(request.body) : undefined;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(routeUrl(name, request), {
    method: route.method,
    headers,
    ...(body !== undefined && { body }),
  });
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok) return answer as SuccessOf<N>;
  const { error, code } = (answer ?? {}) as { error?: unknown; code?: unknown };
  const message = typeof error === "string" ? error : `${route.path}: HTTP ${response.status}`;
  throw new DaemonError(message, response.status, typeof code === "string" ? code : undefined, answer);
}

/** An entry of the daemon's event log, as the stream carries it. */
export type StreamedEvent = AnswerOf<"events", 200>;

/**
 * Loads route `name` and loads it again whenever the daemon streams an event that `relevant` accepts
 * (at most every 150 ms while events pour in). The stream resumes after its last id on its own.
 */
export function useDaemonData<N extends RouteName>(
  name: N,
  request: RequestOf<N>,
  relevant: (event: StreamedEvent) => boolean,
): { data: SuccessOf<N> | undefined; error: string | undefined; reload: () => void } {
  // The URL stands for the request: a new object with the same contents loads nothing again.
  return useDaemonLoad(() => callDaemon(name, request), routeUrl(name, request), relevant);
}

/**
 * What `load` answers, loaded again as `useDaemonData` reloads a route. A face that shows several
 * routes side by side loads them in one `load`, so each render shows answers of the same refresh.
 * `key` stands for what `load` asks: a new key loads at once.
 */
export function useDaemonLoad<T>(
  load: () => Promise<T>,
  key: string,
  relevant: (event: StreamedEvent) => boolean,
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the reload trigger; `key` stands for `load`.
  useEffect(() => {
    let stale = false;
    load().then(
      (value) => {
        if (stale) return;
        setData(value);
        setError(undefined);
      },
      (caught: unknown) => !stale && setError(caught instanceof Error ? caught.message : String(caught)),
    );
    return () => {
      stale = true;
    };
  }, [key, generation]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = followEvents((event) => {
      if (!relevant(event) || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        setGeneration((n) => n + 1);
      }, 150);
    });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      stop();
    };
  }, [relevant]);
  return { data, error, reload: () => setGeneration((n) => n + 1) };
}

/** Events this much older than the page still count: the daemon's clock and the browser's may differ. */
const CLOCK_SLACK_MS = 5_000;

/**
 * Reads the daemon's SSE stream with fetch (so the token goes in a header, not the URL), hands on the
 * events from about when the page opened, and reconnects after its last id when the stream ends.
 * Returns a function that stops it.
 */

function followEvents(onEvent: (event: StreamedEvent) => void): () => void {
  const abort = new AbortController();
  const since = Date.now() - CLOCK_SLACK_MS;
  let after: number | undefined;
  const read = async (): Promise<void> => {
    const response = await fetch(routeUrl("events", { query: { after } }), {
      headers: { authorization: `Bearer ${pageToken()}` },
      signal: abort.signal,
    });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) return;
      buffer += chunk.value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").find((line) => line.startsWith("data: "));
        if (data === undefined) continue;
        const event = JSON.parse(data.slice(6)) as StreamedEvent;
        after = event.seq;
        // The stream starts with the whole log: events from before the page loaded its data change
        // nothing it shows, so only newer ones count.
        if (Date.parse(event.at) >= since) onEvent(event);
      }
    }
  };
  const loop = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      await read().catch(() => undefined);
      if (!abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void loop();
  return () => abort.abort();
}
