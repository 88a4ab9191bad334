import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createScriptedHarness } from "./scripted-harness.ts";
import { makeRequest, runToEnd, tempWorkspace } from "./test-support.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("createScriptedHarness with no arguments", () => {
  it("runs on the system clock with random ids, and resumes its sessions from memory", async () => {
    const ws = tempWorkspace();
    try {
      const harness = createScriptedHarness();
      const first = await runToEnd(harness, makeRequest(ws.dir, "@sleep 1\n@say hello"));
      assert.equal(first.outcome.kind, "completed");
      const sessionId = first.outcome.sessionId ?? "";
      assert.match(sessionId, UUID);
      assert.deepEqual(first.events.at(1), { type: "assistant.text", text: "hello" });

      const resumed = await runToEnd(
        harness,
        makeRequest(ws.dir, "@say again", { resumeSessionId: sessionId }),
      );
      assert.equal(resumed.outcome.kind, "completed");
      assert.equal(resumed.outcome.sessionId, sessionId);
    } finally {
      ws.remove();
    }
  });
});
