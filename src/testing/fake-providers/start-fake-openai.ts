import { answerRequest } from "./answer-request.ts";
import { deliverJson } from "./deliver.ts";
import { type Exchange, startFakeServer } from "./fake-server.ts";
import type { FakeProviderServer, FakeScript, FakeServerOptions, RecordedRequest } from "./fake-types.ts";
import { asRecord } from "./json-access.ts";
import { openaiErrorBody, openaiRenderer } from "./openai-renderer.ts";
import { pickReply } from "./pick-reply.ts";
import { openaiView } from "./request-view.ts";

function route(exchange: Exchange): RecordedRequest["route"] {
  return exchange.method === "POST" && exchange.path.endsWith("/chat/completions")
    ? "chat_completions"
    : "not_found";
}

/**
 * A fake OpenAI Chat Completions API on 127.0.0.1 (reference: harnesses-and-dependencies §1.1).
 * `POST …/chat/completions` (any path prefix; clients usually use `${baseUrl}/v1`) answers from the
 * script: streamed as `data:` chunks, then a finish chunk, a usage chunk and `data: [DONE]` when the
 * request has `stream: true`, else one `chat.completion` body. Anything else gets 404 with an OpenAI
 * error body. Any API key is accepted.
 */
export function startFakeOpenAI(
  script: FakeScript,
  options: FakeServerOptions = {},
): Promise<FakeProviderServer> {
  const now = options.now ?? Date.now;
  return startFakeServer(options, (exchange) => {
    const kind = route(exchange);
    if (kind === "not_found") {
      const body = openaiErrorBody(
        `Unknown request URL: ${exchange.method} ${exchange.url}`,
        "invalid_request_error",
        "unknown_url",
      );
      deliverJson(exchange.res, 404, body);
      return { route: kind };
    }
    if (exchange.body === null) {
      const body = openaiErrorBody("The request body is not valid JSON", "invalid_request_error", null);
      deliverJson(exchange.res, 400, body);
      return { route: kind, reply: "invalid-json" };
    }
    const request = openaiView(asRecord(exchange.body), exchange.nextModelIndex());
    const reply = pickReply(script, request);
    answerRequest(exchange, request, reply, openaiRenderer, now());
    return { route: kind, reply: reply.type };
  });
}
