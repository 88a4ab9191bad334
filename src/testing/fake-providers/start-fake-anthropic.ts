import { answerRequest } from "./answer-request.ts";
import { anthropicErrorBody, anthropicRenderer } from "./anthropic-renderer.ts";
import { deliverJson } from "./deliver.ts";
import { type Exchange, startFakeServer } from "./fake-server.ts";
import type { FakeProviderServer, FakeScript, FakeServerOptions, RecordedRequest } from "./fake-types.ts";
import { asRecord } from "./json-access.ts";
import { pickReply } from "./pick-reply.ts";
import { anthropicView } from "./request-view.ts";

function route(exchange: Exchange): RecordedRequest["route"] {
  if (exchange.method !== "POST") return "not_found";
  if (exchange.path.endsWith("/v1/messages")) return "messages";
  if (exchange.path.endsWith("/v1/messages/count_tokens")) return "count_tokens";
  return "not_found";
}

/**
 * A fake Anthropic Messages API on 127.0.0.1 (reference: harnesses-and-dependencies §1.1).
 * `POST …/v1/messages` (any path prefix, any query such as `?beta=true`) answers from the script,
 * streamed as SSE when the request has `stream: true`; `POST …/v1/messages/count_tokens` answers
 * `{input_tokens}`; anything else gets 404 with an Anthropic error body. Any API key is accepted.
 */
export function startFakeAnthropic(
  script: FakeScript,
  options: FakeServerOptions = {},
): Promise<FakeProviderServer> {
  const now = options.now ?? Date.now;
  return startFakeServer(options, (exchange) => {
    const kind = route(exchange);
    if (kind === "not_found") {
      const message = `Not found: ${exchange.method} ${exchange.url}`;
      deliverJson(exchange.res, 404, anthropicErrorBody("not_found_error", message));
      return { route: kind };
    }
    if (kind === "count_tokens") {
      deliverJson(exchange.res, 200, { input_tokens: Math.ceil(exchange.bodyChars / 4) });
      return { route: kind };
    }
    if (exchange.body === null) {
      const body = anthropicErrorBody("invalid_request_error", "The request body is not valid JSON");
      deliverJson(exchange.res, 400, body);
      return { route: kind, reply: "invalid-json" };
    }
    const request = anthropicView(asRecord(exchange.body), exchange.nextModelIndex());
    const reply = pickReply(script, request);
    answerRequest(exchange, request, reply, anthropicRenderer, now());
    return { route: kind, reply: reply.type };
  });
}
