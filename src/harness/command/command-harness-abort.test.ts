import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createCommandHarness } from "./command-harness.ts";
import { NO_USAGE } from "./output-parser.ts";
import {
  createFakeClock,
  eventually,
  type FakeClock,
  fakeCommand,
  isRunning,
  makeRequest,
  readPids,
  runToEnd,
  tempDir,
  testDeps,
} from "./test-support.ts";

describe("command harness: aborts and the process group", () => {
  let ws: ReturnType<typeof tempDir>;
  let clock: FakeClock;
  beforeEach(() => {
    ws = tempDir();
    clock = createFakeClock();
  });
  afterEach(() => ws.remove());

  it("an abort (the engine's idle timeout) stops the whole group and leaves no process behind", async () => {
    const controller = new AbortController();
    const harness = createCommandHarness(fakeCommand("fake", ["hang", "{prompt}"]), testDeps(clock, ws.dir));
    const session = harness.start(makeRequest(ws.dir, { signal: controller.signal }));
    const events = [];
    for await (const event of session) {
      events.push(event);
      if (event.type === "tool.use") controller.abort("Idle timeout: no events received for 180000ms");
    }
    const outcome = await session.outcome;
    assert.deepEqual(outcome, {
      kind: "aborted",
      sessionId: "sess-1",
      totals: NO_USAGE,
      layers: { stream: "aborted", toolBatch: "aborted", turn: "aborted" },
      reason: "Idle timeout: no events received for 180000ms",
      process: { exitCode: null, signal: "SIGTERM" },
    });
    assert.deepEqual(events.at(-1), { type: "turn.ended", reason: "aborted" });
    const pids = readPids(ws.dir);
    await eventually(() => !isRunning(pids.agent) && !isRunning(pids.grandchild));
  });

  it("escalates to SIGKILL after the grace period, on the injected clock", async () => {
    const controller = new AbortController();
    const command = fakeCommand("fake", ["stubborn", "{prompt}"], { output: "text", killGraceMs: 2_000 });
    const session = createCommandHarness(command, testDeps(clock, ws.dir)).start(
      makeRequest(ws.dir, { signal: controller.signal }),
    );
    const texts: string[] = [];
    for await (const event of session) {
      if (event.type !== "assistant.text") continue;
      texts.push(event.text);
      if (event.text === "ready") controller.abort("stop");
      if (event.text === "got SIGTERM") {
        const { agent, grandchild } = readPids(ws.dir);
        assert.equal(isRunning(agent), true);
        await eventually(() => !isRunning(grandchild));
        clock.advance(2_000);
      }
    }
    const outcome = await session.outcome;
    assert.deepEqual(texts, ["ready", "got SIGTERM"]);
    assert.equal(outcome.kind, "aborted");
    assert.deepEqual(outcome.process, { exitCode: null, signal: "SIGKILL" });
    await eventually(() => !isRunning(readPids(ws.dir).agent));
  });

  it("does not start the agent when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort("cancelled");
    const harness = createCommandHarness(fakeCommand("fake", ["ok", "{prompt}"]), testDeps(clock, ws.dir));
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, { signal: controller.signal }));
    assert.deepEqual(events, []);
    assert.deepEqual(outcome, {
      kind: "aborted",
      reason: "cancelled",
      layers: { stream: "aborted", toolBatch: "completed", turn: "aborted" },
      totals: NO_USAGE,
    });
    assert.equal(existsSync(join(ws.dir, "out.txt")), false);
  });
});
