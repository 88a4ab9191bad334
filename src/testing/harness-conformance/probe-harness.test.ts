import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ALL_COMPLETED } from "../../harness/end-reason.ts";
import type { Harness, SessionRequest } from "../../harness/harness.ts";
import { createSession } from "../../harness/session-channel.ts";
import { probeHarness } from "./probe-harness.ts";
import { createSessionDirector } from "./session-director.ts";

const TOTALS = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: null };

/** A harness whose sessions report an id (unless `silent`), then complete. */
function stubHarness(silent: boolean): Harness {
  return {
    name: "stub",
    capabilities: { resume: false, reportsCost: false, compaction: false },
    start: () =>
      createSession(async (emit) => {
        if (!silent) emit({ type: "session.started", sessionId: "s-1" });
        emit({ type: "assistant.text", text: "hi" });
        return { kind: "completed", layers: ALL_COMPLETED, totals: TOTALS };
      }),
  };
}

const request: SessionRequest = {
  codonId: "a",
  prompt: "p",
  model: { requested: "stub", id: "stub", provider: "stub" },
  cwd: "/",
  env: {},
  autoCompact: false,
  attempt: 1,
  extension: 0,
  signal: new AbortController().signal,
};

describe("probe harness", () => {
  it("steps the director, passes every event through and times start-up and the whole session", async () => {
    const director = createSessionDirector();
    director.plan([{ kind: "stall" }, { kind: "overflow" }]);
    let tick = 0;
    const probe = probeHarness(stubHarness(false), director, () => (tick += 10));
    const session = probe.harness.start(request);
    assert.equal(director.started(), 1);
    const seen: string[] = [];
    for await (const event of session) seen.push(event.type);
    assert.equal((await session.outcome).kind, "completed");
    assert.deepEqual(seen, ["session.started", "assistant.text"]);
    // The stub settles before anything reads it: session.started is timed when the consumer reads it.
    assert.deepEqual(probe.timings, [{ startMs: 10, sessionStartedMs: 30, endMs: 20 }]);
    assert.equal(probe.harness.name, "stub");
  });

  it("leaves the start-up time undefined when the session never reported an id", async () => {
    const director = createSessionDirector();
    director.plan([{ kind: "stall" }]);
    const probe = probeHarness(stubHarness(true), director, () => 5);
    const session = probe.harness.start(request);
    for await (const _ of session) {
      // drain
    }
    await session.outcome;
    assert.deepEqual(probe.timings, [{ startMs: 5, sessionStartedMs: undefined, endMs: 5 }]);
  });
});
