import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FakeProviderServer } from "./fake-types.ts";
import { startFakeAnthropic } from "./start-fake-anthropic.ts";
import { dataPayloads, FIXED_NOW, post, readBody, readFrames } from "./test-support.ts";

const USER = [{ role: "user", content: "hi" }];

describe("startFakeAnthropic: faults", () => {
  let server: FakeProviderServer;
  before(async () => {
    server = await startFakeAnthropic(
      [
        { type: "rate-limit", retryAfterSeconds: 30 },
        { type: "server-error" },
        { type: "overloaded" },
        { type: "prompt-too-long" },
        { type: "http-error", status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
        { type: "connection-reset", afterEvents: 2 },
        { type: "stall" },
      ],
      { now: () => FIXED_NOW },
    );
  });
  after(() => server.close());

  const send = (): Promise<Response> =>
    post(
      `${server.baseUrl}/v1/messages`,
      { model: "m", stream: true, messages: USER },
      { "x-api-key": "anything" },
    );

  it("sends HTTP errors with Anthropic error bodies and a retry-after header", async () => {
    const results: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await send();
      results.push([response.status, response.headers.get("retry-after"), await response.json()]);
    }
    assert.deepEqual(results, [
      [
        429,
        "30",
        {
          type: "error",
          error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" },
        },
      ],
      [500, null, { type: "error", error: { type: "api_error", message: "Internal server error" } }],
      [529, null, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
      [
        400,
        null,
        {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "prompt is too long: 210000 tokens > 200000 maximum",
          },
        },
      ],
      [401, null, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }],
    ]);
  });

  it("resets the connection after the given number of events", async () => {
    const response = await send();
    assert.equal(response.status, 200);
    const { text, failed } = await readBody(response);
    assert.equal(failed, true);
    assert.deepEqual(
      dataPayloads(text).map((e) => (e as { type: string }).type),
      ["message_start", "content_block_start"],
    );
  });

  it("stalls after headers and one event until the server closes", async () => {
    const response = await send();
    const { frames } = await readFrames(response, 1);
    assert.equal(frames.length, 1);
    assert.match(frames[0] ?? "", /^event: message_start\n/);
    assert.equal(server.requests.at(-1)?.reply, "stall");
    await server.close();
  });
});
