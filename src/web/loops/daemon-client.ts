import { useEffect, useState } from "react";

/**
 * Talks to the daemon that served the page, with the page's token (`/ui/?token=`): JSON routes with
 * `Authorization: Bearer` (the event stream too: it is read with fetch, not EventSource).
 */

function pageToken(): string {
  return new URLSearchParams(location.search).get("token") ?? "";
}

export class DaemonError extends Error {}

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { authorization: `Bearer ${pageToken()}` } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new DaemonError(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

export async function postJson(path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(path, {
    method: "POST",
    headers: { authorization: `Bearer ${pageToken()}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new DaemonError(answer.error ?? `${path}: HTTP ${response.status}`);
  }
}

/**
 * Loads `path` and loads it again whenever the daemon streams an event that `relevant` accepts (at most
 * every 150 ms while events pour in). The stream resumes after its last id on its own.
 */
export function useDaemonData<T>(
  path: string,
  relevant: (event: { runId?: string; type?: string }) => boolean,
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the reload trigger.
  useEffect(() => {
    let stale = false;
    getJson<T>(path).then(
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
  }, [path, generation]);
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

function followEvents(onEvent: (event: { runId?: string; type?: string }) => void): () => void {
  const abort = new AbortController();
  const since = Date.now() - CLOCK_SLACK_MS;
  let after: number | undefined;
  const read = async (): Promise<void> => {
    const query = after === undefined ? "" : `?after=${after}`;
    const response = await fetch(`/events${query}`, {
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
        const event = JSON.parse(data.slice(6)) as {
          seq?: number;
          runId?: string;
          type?: string;
          at?: string;
        };
        if (typeof event.seq === "number") after = event.seq;
        // The stream starts with the whole log: events from before the page loaded its data change
        // nothing it shows, so only newer ones count.
        if (Date.parse(event.at ?? "") >= since) onEvent(event);
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
