import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FakeProviderServer } from "./fake-types.ts";
import { startFakeOpenAI } from "./start-fake-openai.ts";
import { dataPayloads, FIXED_NOW, PI_TOOLS, post, readBody, readFrames } from "./test-support.ts";

const USER = [{ role: "user", content: "hi" }];
const HEAD =
  '{"id":"chatcmpl-fake-0","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test",';

describe("startFakeOpenAI: streaming answers", () => {
  let server: FakeProviderServer;
  before(async () => {
    server = await startFakeOpenAI(
      [
        {
          type: "text",
          text: "Hi!",
          textChunks: 1,
          usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 },
        },
        { type: "tool", calls: [{ tool: "Write", input: { path: "a.txt", content: "x" } }] },
        { type: "max-tokens", call: { tool: "bash", input: { command: "ls -la" } }, keepChars: 8 },
      ],
      { now: () => FIXED_NOW },
    );
  });
  after(() => server.close());

  const send = (): Promise<Response> =>
    post(
      `${server.baseUrl}/v1/chat/completions`,
      {
        model: "gpt-test",
        stream: true,
        stream_options: { include_usage: true },
        tools: PI_TOOLS,
        messages: USER,
      },
      { authorization: "Bearer anything" },
    );

  it("streams text chunks, a finish chunk, a usage chunk and [DONE], framed exactly", async () => {
    const response = await send();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(
      await response.text(),
      `data: ${HEAD}"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n` +
        `data: ${HEAD}"choices":[{"index":0,"delta":{"content":"Hi!"},"logprobs":null,"finish_reason":null}]}\n\n` +
        `data: ${HEAD}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n` +
        `data: ${HEAD}"choices":[],"usage":{"prompt_tokens":14,"completion_tokens":2,"total_tokens":16,"prompt_tokens_details":{"cached_tokens":4}}}\n\n` +
        "data: [DONE]\n\n",
    );
  });

  it("streams a tool call named from the request's tools, its arguments in fragments", async () => {
    const chunks = dataPayloads(await (await send()).text()) as Array<{
      choices: Array<{ delta: unknown; finish_reason: unknown }>;
    }>;
    assert.deepEqual(
      chunks.map((c) => c.choices[0]?.delta ?? null),
      [
        { role: "assistant", content: "" },
        {
          tool_calls: [
            { index: 0, id: "call_fake_1_0", type: "function", function: { name: "write", arguments: "" } },
          ],
        },
        { tool_calls: [{ index: 0, function: { arguments: '{"path":"a' } }] },
        { tool_calls: [{ index: 0, function: { arguments: '.txt","con' } }] },
        { tool_calls: [{ index: 0, function: { arguments: 'tent":"x"}' } }] },
        {},
        null,
      ],
    );
    assert.equal(chunks[5]?.choices[0]?.finish_reason, "tool_calls");
  });

  it("ends a cut tool call with finish_reason length", async () => {
    const chunks = dataPayloads(await (await send()).text()) as Array<{
      choices: Array<{
        delta: { tool_calls?: Array<{ function: { arguments: string } }> };
        finish_reason: unknown;
      }>;
    }>;
    const args = chunks.map((c) => c.choices[0]?.delta.tool_calls?.[0]?.function.arguments ?? "").join("");
    assert.equal(args, '{"comman');
    assert.deepEqual(
      chunks.map((c) => (c.choices[0] === undefined ? "usage" : c.choices[0].finish_reason)),
      [null, null, null, null, null, "length", "usage"],
    );
  });
});

describe("startFakeOpenAI: non-streaming, routes and faults", () => {
  let server: FakeProviderServer;
  before(async () => {
    server = await startFakeOpenAI(
      [
        { type: "text", text: "plain", usage: { inputTokens: 3, outputTokens: 1 } },
        { type: "rate-limit", retryAfterSeconds: 2 },
        { type: "server-error" },
        { type: "overloaded" },
        { type: "prompt-too-long" },
        { type: "connection-reset", afterEvents: 1 },
        { type: "stall", afterEvents: 2 },
      ],
      { now: () => FIXED_NOW },
    );
  });
  after(() => server.close());

  const send = (stream: boolean): Promise<Response> =>
    post(`${server.baseUrl}/v1/chat/completions`, { model: "gpt-test", stream, messages: USER });

  it("returns a chat.completion body when stream is false", async () => {
    assert.deepEqual(await (await send(false)).json(), {
      id: "chatcmpl-fake-0",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-test",
      choices: [
        { index: 0, message: { role: "assistant", content: "plain" }, logprobs: null, finish_reason: "stop" },
      ],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 1,
        total_tokens: 4,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    });
  });

  it("sends HTTP errors with OpenAI error bodies", async () => {
    const results: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await send(true);
      results.push([response.status, response.headers.get("retry-after"), await response.json()]);
    }
    const err = (message: string, type: string, code: string | null, param: string | null = null) => ({
      error: { message, type, param, code },
    });
    assert.deepEqual(results, [
      [429, "2", err("Rate limit reached for requests", "requests", "rate_limit_exceeded")],
      [500, null, err("The server had an error while processing your request.", "server_error", null)],
      [503, null, err("The engine is currently overloaded, please try again later.", "server_error", null)],
      [
        400,
        null,
        err(
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 210000 tokens. Please reduce the length of the messages.",
          "invalid_request_error",
          "context_length_exceeded",
          "messages",
        ),
      ],
    ]);
  });

  it("resets the connection mid-stream", async () => {
    const { text, failed } = await readBody(await send(true));
    assert.equal(failed, true);
    assert.deepEqual(dataPayloads(text).length, 1);
  });

  it("stalls after the given number of chunks", async () => {
    const { frames, cancel } = await readFrames(await send(true), 2);
    assert.equal(frames.length, 2);
    await cancel();
  });

  it("answers other paths with 404 and an OpenAI error body", async () => {
    const response = await post(`${server.baseUrl}/v1/responses`, {});
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      error: {
        message: "Unknown request URL: POST /v1/responses",
        type: "invalid_request_error",
        param: null,
        code: "unknown_url",
      },
    });
  });

  it("rejects a body that is not JSON with 400", async () => {
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, { method: "POST", body: "{nope" });
    assert.equal(response.status, 400);
    assert.equal(server.requests.at(-1)?.reply, "invalid-json");
  });
});

describe("startFakeOpenAI: a paced stream", () => {
  let server: FakeProviderServer;
  before(async () => {
    server = await startFakeOpenAI([{ type: "text", text: "one two three four", textChunks: 4 }], {
      frameIntervalMs: 20,
    });
  });
  after(() => server.close());

  it("sends the frames one by one, the same bytes as a whole stream", async () => {
    const response = await post(`${server.baseUrl}/v1/chat/completions`, {
      model: "gpt-test",
      stream: true,
      messages: USER,
    });
    const reader = response.body?.getReader();
    assert.ok(reader !== undefined);
    const reads: string[] = [];
    const decoder = new TextDecoder();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      reads.push(decoder.decode(read.value, { stream: true }));
    }
    const text = reads.join("");
    const frames = text.split("\n\n").filter((frame) => frame !== "");
    // A paced stream arrives as several reads (a whole one is written at once), and ends as any does.
    assert.ok(reads.length >= 3, `expected the frames in several reads, got ${reads.length}`);
    assert.equal(frames.at(-1), "data: [DONE]");
    assert.equal(dataPayloads(text).length, frames.length - 1);
  });
});
