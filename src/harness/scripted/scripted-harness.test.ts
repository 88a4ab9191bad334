import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { ALL_COMPLETED } from "../end-reason.ts";
import { createTestHarness, makeRequest, runToEnd, tempWorkspace } from "./test-support.ts";

const ZERO_TOTALS = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd: 0,
};

describe("scripted harness: workspace and text", () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.remove());

  it("declares its name and capabilities", () => {
    const { harness } = createTestHarness();
    assert.equal(harness.name, "scripted");
    assert.deepEqual(harness.capabilities, { resume: true, reportsCost: true, compaction: true });
  });

  it("writes, appends and deletes files for real, reporting each as a tool call and a file change", async () => {
    writeFileSync(join(ws.dir, "old.txt"), "old");
    const prompt = "@write notes/a.txt hello\\nworld\n@append notes/a.txt more\n@delete old.txt";
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.equal(readFileSync(join(ws.dir, "notes/a.txt"), "utf8"), "hello\nworldmore\n");
    assert.equal(existsSync(join(ws.dir, "old.txt")), false);
    const usage = { inputTokens: Math.ceil(prompt.length / 4), outputTokens: 4 }; // 11 + 4 produced chars
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "id-1" },
      {
        type: "tool.use",
        toolUseId: "id-2",
        toolName: "Write",
        input: { file_path: "notes/a.txt", content: "hello\nworld" },
        effects: "reported-files",
      },
      {
        type: "tool.result",
        toolUseId: "id-2",
        toolName: "Write",
        result: "Wrote 11 bytes to notes/a.txt",
        isError: false,
        executionTimeMs: 0,
      },
      { type: "file.changed", path: "notes/a.txt", action: "created", toolUseId: "id-2" },
      {
        type: "tool.use",
        toolUseId: "id-3",
        toolName: "Edit",
        input: { file_path: "notes/a.txt", append: "more" },
        effects: "reported-files",
      },
      {
        type: "tool.result",
        toolUseId: "id-3",
        toolName: "Edit",
        result: "Appended 5 bytes to notes/a.txt",
        isError: false,
        executionTimeMs: 0,
      },
      { type: "file.changed", path: "notes/a.txt", action: "modified", toolUseId: "id-3" },
      {
        type: "tool.use",
        toolUseId: "id-4",
        toolName: "Delete",
        input: { file_path: "old.txt" },
        effects: "reported-files",
      },
      {
        type: "tool.result",
        toolUseId: "id-4",
        toolName: "Delete",
        result: "Deleted old.txt",
        isError: false,
        executionTimeMs: 0,
      },
      { type: "file.changed", path: "old.txt", action: "deleted", toolUseId: "id-4" },
      { type: "usage", usage: { ...usage, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 } },
      { type: "turn.ended", reason: "completed" },
    ]);
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "id-1",
      layers: ALL_COMPLETED,
      totals: { ...ZERO_TOTALS, ...usage },
    });
  });

  it("refuses paths outside the workspace with an error result, not a failure", async () => {
    const outside = tempWorkspace();
    try {
      symlinkSync(outside.dir, join(ws.dir, "data"));
      const prompt = [
        "@write ../x.txt a",
        `@write ${join(outside.dir, "y.txt")} a`,
        "@write data/z.txt a",
        "@delete gone.txt",
        "@delete .",
      ].join("\n");
      const { harness } = createTestHarness();
      const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
      const results = events.flatMap((e) => (e.type === "tool.result" ? [[e.result, e.isError]] : []));
      assert.deepEqual(results, [
        ["Path ../x.txt leaves the workspace", true],
        [`Path ${join(outside.dir, "y.txt")} is absolute; use a path relative to the workspace`, true],
        ["Path data/z.txt leaves the workspace through a symbolic link", true],
        ["No such file or directory: gone.txt", true],
        ["Path . is the workspace itself", true],
      ]);
      assert.equal(events.filter((e) => e.type === "file.changed").length, 0);
      assert.equal(existsSync(join(outside.dir, "z.txt")), false);
      assert.equal(existsSync(join(outside.dir, "y.txt")), false);
      assert.equal(outcome.kind, "completed");
    } finally {
      outside.remove();
    }
  });

  it("runs commands in the workspace with the request environment and captures output and exit code", async () => {
    const prompt =
      "@write a.txt hi\n@run cat a.txt\n@run echo $FOO-$HOME\n@run echo oops >&2; exit 3\n@run kill -KILL $$\n@usage input=1 output=1";
    const { harness } = createTestHarness();
    const request = makeRequest(ws.dir, prompt, {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", FOO: "bar" },
    });
    const { events, outcome } = await runToEnd(harness, request);
    const bash = events.flatMap((e) =>
      e.type === "tool.result" && e.toolName === "Bash" ? [[e.result, e.isError]] : [],
    );
    assert.deepEqual(bash, [
      ["hi\n[exit code 0]", false],
      ["bar-\n[exit code 0]", false],
      ["oops\n[exit code 3]", true],
      ["[killed by SIGKILL]", true],
    ]);
    const uses = events.flatMap((e) => (e.type === "tool.use" && e.toolName === "Bash" ? [e.input] : []));
    assert.deepEqual(uses, [
      { command: "cat a.txt" },
      { command: "echo $FOO-$HOME" },
      { command: "echo oops >&2; exit 3" },
      { command: "kill -KILL $$" },
    ]);
    assert.equal(outcome.kind, "completed");
  });

  it("echoes prose as assistant text and reports the last text as the result", async () => {
    const prompt = "Write the report.\nKeep it short.\n\n@think plan it\nDone.";
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    const produced = "Write the report.\nKeep it short.".length + "plan it".length + "Done.".length;
    assert.deepEqual(events.slice(0, 4), [
      { type: "session.started", sessionId: "id-1" },
      { type: "assistant.text", text: "Write the report.\nKeep it short." },
      { type: "assistant.thinking", text: "plan it" },
      { type: "assistant.text", text: "Done." },
    ]);
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "id-1",
      layers: ALL_COMPLETED,
      totals: {
        ...ZERO_TOTALS,
        inputTokens: Math.ceil(prompt.length / 4),
        outputTokens: Math.ceil(produced / 4),
      },
      resultText: "Done.",
    });
  });

  it("is deterministic: same prompt, ids and clock give the same events", async () => {
    const prompt = "Plan.\n@write out/r.md # Report\n@run ls out\n@say done";
    const runs = [];
    for (const _ of [1, 2]) {
      const workspace = tempWorkspace();
      try {
        const { harness } = createTestHarness();
        runs.push(await runToEnd(harness, makeRequest(workspace.dir, prompt)));
      } finally {
        workspace.remove();
      }
    }
    assert.deepEqual(runs[0], runs[1]);
  });

  it("fails a bad script permanently, naming every bad line, before any session exists", async () => {
    mkdirSync(join(ws.dir, "x"));
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(
      harness,
      makeRequest(ws.dir, "@write x/a.txt ok\n@usage input=5\n@sleep later"),
    );
    assert.deepEqual(events, []);
    assert.deepEqual(outcome, {
      kind: "failed",
      reason: {
        type: "unknown",
        retriable: false,
        message:
          'Bad scripted prompt (2 errors): line 2: @usage needs input=<n> and output=<n>; line 3: @sleep needs a whole number of milliseconds, got "later"',
      },
      sessionEstablished: false,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      totals: ZERO_TOTALS,
    });
    assert.equal(existsSync(join(ws.dir, "x/a.txt")), false);
  });
});
