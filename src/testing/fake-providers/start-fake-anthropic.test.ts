import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FakeProviderServer, FakeReply, FakeRequestView } from "./fake-types.ts";
import { startFakeAnthropic } from "./start-fake-anthropic.ts";
import { CLAUDE_TOOLS, dataPayloads, FIXED_NOW, post } from "./test-support.ts";

const USER = [{ role: "user", content: "hi" }];

describe("startFakeAnthropic: streaming answers", () => {
  let server: FakeProviderServer;
  const seen: FakeRequestView[] = [];
  const replies: FakeReply[] = [
    { type: "text", text: "Hello world", usage: { inputTokens: 10, outputTokens: 3 } },
    {
      type: "tool",
      text: "ok",
      calls: [{ tool: "write", input: { file_path: "a.txt", content: "hi" }, argumentChunks: 2 }],
      usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 5, cacheWriteTokens: 2 },
    },
    {
      type: "max-tokens",
      call: { tool: "write", input: { file_path: "a.txt", content: "hi" } },
      keepChars: 10,
    },
  ];
  before(async () => {
    server = await startFakeAnthropic(
      (request) => {
        seen.push(request);
        return replies[request.requestIndex] ?? { type: "text", text: "end" };
      },
      { now: () => FIXED_NOW },
    );
  });
  after(() => server.close());

  it("streams a text answer with the exact SSE framing, on ?beta=true", async () => {
    const response = await post(`${server.baseUrl}/v1/messages?beta=true`, {
      model: "claude-test",
      stream: true,
      messages: USER,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(
      await response.text(),
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_fake_0","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello "}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"world"}}\n\n' +
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });

  it("streams text then a tool call named from the request's tools, its JSON split across deltas", async () => {
    const response = await post(`${server.baseUrl}/anthropic/v1/messages`, {
      model: "claude-test",
      stream: true,
      tools: CLAUDE_TOOLS,
      messages: USER,
    });
    const events = dataPayloads(await response.text());
    assert.deepEqual(events.slice(0, 1), [
      {
        type: "message_start",
        message: {
          id: "msg_fake_1",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 20,
            output_tokens: 1,
            cache_creation_input_tokens: 2,
            cache_read_input_tokens: 5,
          },
        },
      },
    ]);
    assert.deepEqual(events.slice(4), [
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_fake_1_1", name: "Write", input: {} },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: '{"file_path":"a.tx' },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: 't","content":"hi"}' },
      },
      { type: "content_block_stop", index: 1 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 7 },
      },
      { type: "message_stop" },
    ]);
  });

  it("cuts a tool call's JSON at max_tokens", async () => {
    const response = await post(`${server.baseUrl}/v1/messages`, {
      model: "claude-test",
      stream: true,
      tools: CLAUDE_TOOLS,
      messages: USER,
    });
    const events = dataPayloads(await response.text());
    const partial = events
      .map((e) => e as { delta?: { partial_json?: string } })
      .map((e) => e.delta?.partial_json ?? "")
      .join("");
    assert.equal(partial, '{"file_pat');
    assert.deepEqual(events.at(-2), {
      type: "message_delta",
      delta: { stop_reason: "max_tokens", stop_sequence: null },
      usage: { output_tokens: 3 },
    });
  });

  it("gives the script the conversation: prompt, step and tool results", () => {
    assert.equal(seen.length, 3);
    assert.deepEqual(
      seen.map((view) => [view.provider, view.requestIndex, view.prompt, view.step, view.tools.length]),
      [
        ["anthropic", 0, "hi", 0, 0],
        ["anthropic", 1, "hi", 0, 2],
        ["anthropic", 2, "hi", 0, 2],
      ],
    );
  });
});

describe("startFakeAnthropic: other routes and non-streaming", () => {
  let server: FakeProviderServer;
  before(async () => {
    server = await startFakeAnthropic(
      [
        {
          type: "tool",
          calls: [{ tool: "Bash", input: { command: "ls" } }],
          usage: { inputTokens: 4, outputTokens: 2 },
        },
      ],
      { now: () => FIXED_NOW },
    );
  });
  after(() => server.close());

  it("returns the plain message JSON when stream is false", async () => {
    const response = await post(`${server.baseUrl}/v1/messages`, {
      model: "m",
      tools: CLAUDE_TOOLS,
      messages: USER,
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      id: "msg_fake_0",
      type: "message",
      role: "assistant",
      model: "m",
      content: [{ type: "tool_use", id: "toolu_fake_0_0", name: "Bash", input: { command: "ls" } }],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 4,
        output_tokens: 2,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
  });

  it("answers past the end of a list script with a text saying so", async () => {
    const response = await post(`${server.baseUrl}/v1/messages`, { model: "m", messages: USER });
    const body = (await response.json()) as { content: unknown };
    assert.deepEqual(body.content, [{ type: "text", text: "fake provider: script exhausted" }]);
  });

  it("answers count_tokens with an estimate and takes no script entry", async () => {
    const body = { model: "m", messages: USER };
    const response = await post(`${server.baseUrl}/v1/messages/count_tokens?beta=true`, body);
    assert.deepEqual(await response.json(), { input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
  });

  it("answers unknown paths and methods with 404 and an Anthropic error body", async () => {
    const head = await fetch(`${server.baseUrl}/api/hello`, { method: "HEAD" });
    assert.equal(head.status, 404);
    const get = await fetch(`${server.baseUrl}/v1/models`);
    assert.equal(get.status, 404);
    assert.deepEqual(await get.json(), {
      type: "error",
      error: { type: "not_found_error", message: "Not found: GET /v1/models" },
    });
  });

  it("records every request with its route, headers, body and reply, as JSON lines", () => {
    assert.deepEqual(
      server.requests.map((r) => [r.index, r.method, r.url, r.route, r.reply ?? null]),
      [
        [0, "POST", "/v1/messages", "messages", "tool"],
        [1, "POST", "/v1/messages", "messages", "text"],
        [2, "POST", "/v1/messages/count_tokens?beta=true", "count_tokens", null],
        [3, "HEAD", "/api/hello", "not_found", null],
        [4, "GET", "/v1/models", "not_found", null],
      ],
    );
    assert.deepEqual(server.requests[0]?.body, { model: "m", tools: CLAUDE_TOOLS, messages: USER });
    const lines = server.log().split("\n");
    assert.equal(lines.length, 6);
    assert.equal(lines[5], "");
    assert.deepEqual(JSON.parse(lines[3] ?? ""), server.requests[3]);
  });
});
