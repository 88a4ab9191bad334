import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, startHankForTest } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const MAX_TOKENS_MESSAGE =
  "Output stopped at the max output tokens limit (64000 tokens) in the middle of a Write tool call; the call was not executed";

describe("end reasons on codon.completed", () => {
  it("max-tokens: the truncated Write is never executed and every layer says max-tokens", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("m", "@say writing\n@max-tokens\n@write never.txt x"),
        scriptedCodon("n", "@say n"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(readdirSync(run.agentRoot), []);
    assert.deepEqual(run.data("tool.result"), []);
    assert.deepEqual(run.data("file.updated"), []);
    assert.deepEqual(
      run.data("assistant.action").map((a) => [a.action, a.toolName, a.toolInput]),
      [
        ["message", undefined, undefined],
        ["tool_use", "Write", { truncated: true, partialInput: '{"file_path": "' }],
      ],
    );
    assert.deepEqual(run.data("codon.completed"), [
      {
        codonId: "m",
        success: false,
        cost: 0,
        duration: 0,
        exitStatus: { type: "error", code: 1 },
        failureReason: { type: "api-error", retriable: false, message: MAX_TOKENS_MESSAGE },
        endReasons: { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens", codon: "max-tokens" },
        attempt: 1,
        failedDuring: "running",
      },
    ]);
    assert.deepEqual(run.state.codons[0]?.endReasons?.codon, "max-tokens");
    assert.equal(run.result.message, `Codon m failed (permanent failure): ${MAX_TOKENS_MESSAGE}`);
  });

  it("completed: a script that runs to its end completes every layer, and its tools really ran", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("w", "@write notes/a.txt hello\n@append notes/a.txt world\n@say done")]),
    });
    t.after(run.remove);
    assert.deepEqual(run.data("codon.completed")[0]?.endReasons, {
      stream: "completed",
      toolBatch: "completed",
      turn: "completed",
      codon: "completed",
    });
    assert.deepEqual(
      run.data("file.updated").map((f) => [f.path, f.action, f.bytes, f.source.kind]),
      [
        ["notes/a.txt", "created", 5, "tool_use"],
        ["notes/a.txt", "modified", 11, "tool_use"],
      ],
    );
    assert.deepEqual(
      run.data("tool.result").map((r) => [r.toolName, r.result, r.isError]),
      [
        ["Write", "Wrote 5 bytes to notes/a.txt", false],
        ["Edit", "Appended 6 bytes to notes/a.txt", false],
      ],
    );
  });

  it("aborted: a cancel mid-session ends the codon and the run as aborted, nothing after it runs", async (t) => {
    const controller = new AbortController();
    const running = startHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@say busy\n@sleep 600000\n@write late.txt x"),
        scriptedCodon("b", "@say b"),
      ]),
      signal: controller.signal,
    });
    t.after(running.remove);
    await running.waitForEvent("assistant.action");
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    controller.abort();
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { endReasons: a?.endReasons, exitStatus: a?.exitStatus, failureReason: a?.failureReason },
      {
        endReasons: { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "aborted" },
        exitStatus: { type: "none" },
        failureReason: undefined,
      },
    );
    assert.deepEqual(readdirSync(run.agentRoot), []);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode, message: run.result.message },
      { status: "aborted", exitCode: 0, message: "Run cancelled" },
    );
    assert.deepEqual(
      run.state.runs.map((r) => r.status),
      ["aborted"],
    );
    assert.deepEqual(run.clock.pending(), []);
  });

  it("a cancel between codons ends the run before the next one starts", async (t) => {
    const controller = new AbortController();
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", "@say a"), scriptedCodon("b", "@say b")]),
      signal: controller.signal,
      listeners: [(event) => event.type === "codon.completed" && controller.abort()],
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a ok"]);
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status]),
      [["a", "completed"]],
    );
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "aborted", exitCode: 0 },
    );
  });
});
