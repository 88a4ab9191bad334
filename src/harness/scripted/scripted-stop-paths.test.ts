import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { HarnessEvent } from "../harness.ts";
import { parseScript } from "./parse-script.ts";
import { createTestHarness, makeRequest, runToEnd, tempWorkspace, until } from "./test-support.ts";

const types = (events: HarnessEvent[]) => events.map((e) => e.type);
const ofType = <T extends HarnessEvent["type"]>(events: HarnessEvent[], type: T) =>
  events.filter((e): e is Extract<HarnessEvent, { type: T }> => e.type === type);

describe("scripted harness: conditions on attempts and iterations", () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.remove());

  it("runs @usage, @exhaust-context, @max-tokens and @sleep only on the attempts they name", async () => {
    const prompt = [
      "@usage attempts=2 input=10 output=1 cost=0.5",
      "@max-tokens attempts=1",
      "@exhaust-context attempts=3",
      "@sleep attempts=4 60000",
      "@say done",
    ].join("\n");
    const { harness, clock } = createTestHarness();
    const first = await runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 1 }));
    assert.equal(first.outcome.kind, "max-tokens");
    assert.equal(ofType(first.events, "usage").length, 0);
    const second = await runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 2 }));
    assert.equal(second.outcome.kind, "completed");
    assert.equal(second.outcome.totals.costUsd, 0.5);
    const third = await runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 3 }));
    assert.equal(third.outcome.kind, "context-exceeded");
    assert.equal(clock.pendingTimers(), 0);
    const fourth = runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 4 }));
    await until(() => clock.pendingTimers() === 1);
    clock.advance(60_000);
    assert.equal((await fourth).outcome.kind, "completed");
  });

  it("runs a step limited to iterations only in those iterations of a loop codon, never outside a loop", async () => {
    const prompt = "@exhaust-context iterations=2,3\n@say fits";
    const { harness } = createTestHarness();
    const kinds: string[] = [];
    for (const codonId of ["draft#0", "draft#1", "draft#2", "draft#3", "draft"]) {
      const { outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt, { codonId }));
      kinds.push(outcome.kind);
    }
    assert.deepEqual(kinds, ["completed", "completed", "context-exceeded", "context-exceeded", "completed"]);
  });

  it("combines attempts and iterations: both must hold", async () => {
    const prompt = "@fail attempts=1 iterations=1 API Error: 503 Service Unavailable\n@say ok";
    const { harness } = createTestHarness();
    const run = (codonId: string, attempt: number) =>
      runToEnd(harness, makeRequest(ws.dir, prompt, { codonId, attempt })).then((r) => r.outcome.kind);
    assert.deepEqual(
      [await run("fix#0", 1), await run("fix#1", 1), await run("fix#1", 2)],
      ["completed", "failed", "completed"],
    );
  });
});

describe("scripted harness: truncation, refusal and a process without a result", () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.remove());

  it("@max-tokens cuts a named Write call with its path, runs nothing and stops the turn", async () => {
    const { harness } = createTestHarness();
    const prompt = "@max-tokens write notes/plan.md\n@write after.txt never";
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.deepEqual(ofType(events, "tool.use"), [
      {
        type: "tool.use",
        toolUseId: "id-2",
        toolName: "Write",
        input: { truncated: true, partialInput: '{"file_path": "notes/plan.md", "content": "' },
        effects: "none",
      },
    ]);
    assert.equal(existsSync(join(ws.dir, "notes/plan.md")), false);
    assert.equal(existsSync(join(ws.dir, "after.txt")), false);
    assert.equal(outcome.kind, "max-tokens");
    assert.match(outcome.kind === "max-tokens" ? outcome.message : "", /Write tool call on notes\/plan\.md/);
    assert.deepEqual(outcome.layers, { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" });
  });

  it("@max-tokens continue lets later steps run, and the turn still records max-tokens", async () => {
    const { harness } = createTestHarness();
    const prompt = "@max-tokens continue run npm test\n@write done.txt ok\n@say finished";
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.deepEqual(types(events), [
      "session.started",
      "tool.use",
      "tool.result",
      "tool.use",
      "tool.result",
      "file.changed",
      "assistant.text",
      "usage",
      "turn.ended",
    ]);
    const [cut] = ofType(events, "tool.use");
    assert.deepEqual(cut?.input, { truncated: true, partialInput: '{"command": "npm test' });
    const [refusal] = ofType(events, "tool.result");
    assert.equal(refusal?.isError, true);
    assert.equal(readFileSync(join(ws.dir, "done.txt"), "utf8"), "ok");
    assert.deepEqual(events.at(-1), { type: "turn.ended", reason: "max-tokens" });
    assert.equal(outcome.kind, "max-tokens");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "max-tokens" });
    assert.match(
      outcome.kind === "max-tokens" ? outcome.message : "",
      /Bash tool call \(npm test\).*the turn went on$/,
    );
  });

  it("@blocked refuses a tool call: not executed, the batch and turn end blocked, the script goes on", async () => {
    const { harness } = createTestHarness();
    const prompt = "@blocked write secrets.env\n@say I was not allowed to write it.";
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.equal(existsSync(join(ws.dir, "secrets.env")), false);
    assert.deepEqual(
      ofType(events, "tool.result").map((e) => [e.toolName, e.isError, e.result]),
      [["Write", true, "Permission to use Write on secrets.env was denied; the call was not executed."]],
    );
    assert.equal(ofType(events, "file.changed").length, 0);
    assert.equal(outcome.kind, "completed");
    assert.equal(outcome.kind === "completed" ? outcome.resultText : "", "I was not allowed to write it.");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "blocked", turn: "blocked" });
  });

  it("keeps blocked on the turn when a later tool batch completes", async () => {
    const { harness } = createTestHarness();
    const prompt = "@blocked run rm -rf /tmp/x\n@write ok.txt fine";
    const { outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.equal(readFileSync(join(ws.dir, "ok.txt"), "utf8"), "fine");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "blocked" });
  });

  it("@crash ends without a result message: a retriable failure after the session started", async () => {
    const { harness } = createTestHarness();
    const byCode = await runToEnd(harness, makeRequest(ws.dir, "@say working\n@crash 137\n@say never"));
    assert.deepEqual(types(byCode.events), ["session.started", "assistant.text", "turn.ended"]);
    assert.equal(byCode.outcome.kind, "failed");
    if (byCode.outcome.kind !== "failed") return;
    assert.deepEqual(byCode.outcome.reason, {
      type: "api-error",
      retriable: true,
      message: "Codon process exited without a result message (exit code 137)",
    });
    assert.equal(byCode.outcome.sessionEstablished, true);
    assert.deepEqual(byCode.outcome.layers, { stream: "error", toolBatch: "completed", turn: "error" });
    const bySignal = await runToEnd(harness, makeRequest(ws.dir, "@crash SIGKILL"));
    assert.equal(
      bySignal.outcome.kind === "failed" && bySignal.outcome.reason.message,
      "Codon process exited without a result message (signal SIGKILL)",
    );
  });

  it("reports malformed conditions and arguments of the new directives", () => {
    const parsed = parseScript(
      [
        "@sleep attempts=x 5",
        "@say iterations=1 iterations=2 hi",
        "@usage iterations=-1 input=1 output=1",
        "@blocked fly away",
        "@blocked write",
        "@blocked write two words",
        "@crash soon",
        "@max-tokens continue",
      ].join("\n"),
    );
    assert.equal(parsed.ok, false);
    assert.deepEqual(parsed.ok ? [] : parsed.errors, [
      {
        line: 1,
        message: '@sleep: attempts must be a comma-separated list of attempt numbers from 1, got "x"',
      },
      { line: 2, message: "@say: iterations is given twice" },
      {
        line: 3,
        message: '@usage: iterations must be a comma-separated list of loop iterations from 0, got "-1"',
      },
      {
        line: 4,
        message:
          '@blocked: "fly" is not a tool (write, append, delete, run): @blocked <write|append|delete|run> <path or command>',
      },
      {
        line: 5,
        message: "@blocked write needs a path: @blocked <write|append|delete|run> <path or command>",
      },
      { line: 6, message: '@blocked write takes one path, got "two words"' },
      { line: 7, message: '@crash takes an exit code (0-255) or a signal name such as SIGKILL, got "soon"' },
    ]);
  });
});
