import { type Delivery, deliverJson, deliverSse } from "./deliver.ts";
import type { Exchange } from "./fake-server.ts";
import type { FakeAnswer, FakeHttpFault, FakeReply, FakeRequestView, FakeStreamFault } from "./fake-types.ts";
import { planAnswer } from "./plan-answer.ts";
import type { ProviderRenderer } from "./provider-renderer.ts";

/** What a transport fault streams before it strikes, when the script names no answer. */
const FAULT_ANSWER: FakeAnswer = { type: "text", text: "partial answer from the fake provider" };

const HTTP_FAULTS: ReadonlySet<string> = new Set([
  "rate-limit",
  "server-error",
  "overloaded",
  "prompt-too-long",
  "http-error",
]);

function isHttpFault(reply: FakeReply): reply is FakeHttpFault {
  return HTTP_FAULTS.has(reply.type);
}

function deliveryOf(
  reply: FakeAnswer | FakeStreamFault,
  frameIntervalMs: number,
): { answer: FakeAnswer; delivery: Delivery } {
  switch (reply.type) {
    case "connection-reset":
      return {
        answer: reply.answer ?? FAULT_ANSWER,
        delivery: { mode: "reset", afterEvents: reply.afterEvents },
      };
    case "stall":
      return {
        answer: reply.answer ?? FAULT_ANSWER,
        delivery: { mode: "stall", afterEvents: reply.afterEvents ?? 1 },
      };
    default:
      return {
        answer: reply,
        delivery: frameIntervalMs > 0 ? { mode: "paced", frameIntervalMs } : { mode: "complete" },
      };
  }
}

/** A JSON body has no frames to pace: it is sent whole. */
function wholeBody(delivery: Delivery): Delivery {
  return delivery.mode === "paced" ? { mode: "complete" } : delivery;
}

/**
 * Sends the reply to one model request in the provider's format: an answer (streamed when the request
 * asks for `stream`), an HTTP error, or a transport fault.
 */
export function answerRequest(
  exchange: Exchange,
  request: FakeRequestView,
  reply: FakeReply,
  renderer: ProviderRenderer,
  nowMs: number,
): void {
  if (isHttpFault(reply)) {
    const error = renderer.error(reply);
    deliverJson(exchange.res, error.status, error.body, { mode: "complete" }, error.headers);
    return;
  }
  const { answer, delivery } = deliveryOf(reply, exchange.frameIntervalMs);
  const planned = planAnswer(request, answer, exchange.bodyChars);
  const ids = { requestIndex: request.requestIndex, model: request.model, created: Math.floor(nowMs / 1000) };
  if (request.stream) deliverSse(exchange.res, renderer.streamFrames(planned, ids), delivery);
  else deliverJson(exchange.res, 200, renderer.message(planned, ids), wholeBody(delivery));
}
