import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFakeClock } from "../testing/fake-clock.ts";
import { createScriptedSentinelModel } from "./scripted-sentinel-model.ts";
import type { SentinelModelRequest } from "./sentinel-model.ts";

function request(prompt: string, fields: Partial<SentinelModelRequest> = {}): SentinelModelRequest {
  return {
    messages: [{ role: "user", content: prompt }],
    temperature: 0,
    maxOutputTokens: 100,
    maxRetries: 0,
    callNumber: 1,
    signal: new AbortController().signal,
    ...fields,
  };
}

describe("the scripted sentinel model", () => {
  const clock = createFakeClock({ start: 0 });
  const model = createScriptedSentinelModel("scripted", clock);

  it("answers with its @say lines, and echoes the prose when there are none", async () => {
    assert.deepEqual(await model.call(request("Summarize the run.\n@say All good.\n@say Two files.")), {
      ok: true,
      text: "All good.\nTwo files.",
      usage: { input: 13, output: 5 }, // 50 prompt characters, 20 reply characters
      costUsd: 0,
    });
    const echoed = await model.call(request("Files changed:\n- a.ts"));
    assert.equal(echoed.ok && echoed.text, "Files changed:\n- a.ts");
  });

  it("reports @usage as given, cost included", async () => {
    const reply = await model.call(request("@usage input=1000 output=50 cost=0.25\n@say ok"));
    assert.deepEqual(reply, { ok: true, text: "ok", usage: { input: 1000, output: 50 }, costUsd: 0.25 });
  });

  it("fails with a classified error, on the calls that attempts= names", async () => {
    const script = "@fail attempts=1,2 429 rate_limit_error: slow down\n@say recovered";
    const first = await model.call(request(script, { callNumber: 1 }));
    assert.deepEqual(first.ok ? undefined : first.retriable, true);
    const third = await model.call(request(script, { callNumber: 3 }));
    assert.equal(third.ok && third.text, "recovered");
    const auth = await model.call(request("@fail invalid_request_error: Invalid model"));
    assert.equal(auth.ok ? undefined : auth.retriable, false);
  });

  it("has no tools, and says so", async () => {
    const reply = await model.call(request("@write notes.md hi"));
    assert.deepEqual(
      reply.ok ? undefined : reply.message,
      "@write is not available to a sentinel model: it has no tools and no process",
    );
    const bad = await model.call(request("@wirte notes.md hi"));
    assert.match(bad.ok ? "" : bad.message, /Bad scripted prompt/);
  });

  it("sleeps on the injected clock and stops at once when aborted", async () => {
    const abort = new AbortController();
    const pending = model.call(request("@sleep 60000\n@say late", { signal: abort.signal }));
    await clock.nextTimer((t) => t.delayMs === 60_000);
    abort.abort();
    const reply = await pending;
    assert.deepEqual(reply, { ok: false, message: "Request was aborted", retriable: true });
    const slow = model.call(request("@sleep 1000\n@say done"));
    await clock.advanceToNext((t) => t.delayMs === 1000);
    assert.equal((await slow).ok, true);
  });
});
