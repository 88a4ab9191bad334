import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageMeter } from "./usage-meter.ts";

describe("UsageMeter", () => {
  it("reports one increment per response: input and cache from message_start, output from message_delta", () => {
    const meter = new UsageMeter();
    const usage = {
      input_tokens: 1200,
      output_tokens: 1,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 50,
    };
    assert.equal(
      meter.onStreamEvent("main", { type: "message_start", message: { id: "m1", usage } }),
      undefined,
    );
    assert.equal(meter.onStreamEvent("main", { type: "content_block_stop", index: 0 }), undefined);
    const increment = meter.onStreamEvent("main", { type: "message_delta", usage: { output_tokens: 80 } });
    assert.deepEqual(increment, {
      inputTokens: 1200,
      outputTokens: 80,
      cacheCreationTokens: 300,
      cacheReadTokens: 50,
      costUsd: null,
    });
  });

  it("takes the counts a message_delta repeats, keeps lanes apart, and sums the totals", () => {
    const meter = new UsageMeter();
    meter.onStreamEvent("main", { type: "message_start", message: { usage: { input_tokens: 100 } } });
    meter.onStreamEvent("toolu_1", { type: "message_start", message: { usage: { input_tokens: 7 } } });
    const main = meter.onStreamEvent("main", {
      type: "message_delta",
      usage: { input_tokens: 150, output_tokens: 20, cache_read_input_tokens: 5 },
    });
    const sub = meter.onStreamEvent("toolu_1", { type: "message_delta", usage: { output_tokens: 3 } });
    assert.deepEqual(main, {
      inputTokens: 150,
      outputTokens: 20,
      cacheCreationTokens: 0,
      cacheReadTokens: 5,
      costUsd: null,
    });
    assert.deepEqual(sub, {
      inputTokens: 7,
      outputTokens: 3,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
      costUsd: null,
    });
    assert.deepEqual(meter.totals(), {
      inputTokens: 157,
      outputTokens: 23,
      cacheCreationTokens: 0,
      cacheReadTokens: 5,
    });
  });
});
