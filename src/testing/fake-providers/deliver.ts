import type { ServerResponse } from "node:http";

/** How a streamed body reaches the client: whole, cut by a reset, or stalled. */
export type Delivery =
  | { readonly mode: "complete" }
  /** Frame after frame, `frameIntervalMs` apart: a model streaming at its own pace. */
  | { readonly mode: "paced"; readonly frameIntervalMs: number }
  | { readonly mode: "reset"; readonly afterEvents: number }
  | { readonly mode: "stall"; readonly afterEvents: number };

/** One server-sent event: an `event:` line when named, one `data:` line, a blank line. */
export function sseFrame(event: string | undefined, data: unknown): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return event === undefined ? `data: ${payload}\n\n` : `event: ${event}\ndata: ${payload}\n\n`;
}

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
} as const;

/**
 * Sends SSE frames. A reset destroys the socket once the first `afterEvents` frames were flushed; a
 * stall sends them and then keeps the response open until the client or the server closes it.
 */
export function deliverSse(res: ServerResponse, frames: readonly string[], delivery: Delivery): void {
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();
  if (delivery.mode === "complete") {
    res.end(frames.join(""));
    return;
  }
  if (delivery.mode === "paced") {
    sendPaced(res, frames, delivery.frameIntervalMs);
    return;
  }
  const sent = frames.slice(0, Math.max(0, delivery.afterEvents)).join("");
  if (delivery.mode === "stall") {
    if (sent !== "") res.write(sent);
    return;
  }
  const destroy = (): void => void res.socket?.destroy();
  if (sent === "") setImmediate(destroy);
  else res.write(sent, destroy);
}

/** Writes one frame now and the next after the interval, until the last ends the response. */
function sendPaced(res: ServerResponse, frames: readonly string[], intervalMs: number, at = 0): void {
  if (res.destroyed) return;
  if (at >= frames.length - 1) {
    res.end(frames[at] ?? "");
    return;
  }
  res.write(frames[at] ?? "");
  setTimeout(() => sendPaced(res, frames, intervalMs, at + 1), intervalMs);
}

/** Sends a JSON body; `reset` destroys the socket instead, `stall` sends headers and nothing more. */
export function deliverJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  delivery: Delivery = { mode: "complete" },
  headers: Readonly<Record<string, string>> = {},
): void {
  if (delivery.mode === "reset") {
    res.socket?.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  if (delivery.mode === "stall") {
    res.flushHeaders();
    return;
  }
  res.end(JSON.stringify(body));
}
