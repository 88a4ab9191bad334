import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type JournaledEvent, sampleJournaled } from "../journal/index.ts";
import { heartbeat } from "./heartbeat.ts";
import { budgetRows, summaryLines, tableText } from "./summary.ts";
import { foldLine, oneLine, toolSummary } from "./text.ts";
import { initialTuiState, type TuiState, timelineOf } from "./tui-model.ts";
import type { ServerFrame } from "./tui-state.ts";
import { connectionClosed, reduceFrame } from "./tui-state.ts";

const T0 = Date.parse("2025-01-01T00:00:00.000Z");

function event<T extends JournaledEvent["type"]>(
  type: T,
  seq: number,
  data: Partial<Extract<JournaledEvent, { type: T }>["data"]> = {},
  atMs = 0,
): ServerFrame {
  const sample = sampleJournaled(type, seq);
  return {
    kind: "event",
    event: {
      ...sample,
      timestamp: new Date(T0 + atMs).toISOString(),
      data: { ...sample.data, ...data },
    } as JournaledEvent,
  };
}

function run(frames: readonly ServerFrame[], now = T0): TuiState {
  return frames.reduce((state, frame) => reduceFrame(state, frame, now), initialTuiState(now));
}

describe("the TUI state", () => {
  it("builds the timeline, the running codon and its folded activity, and the totals", () => {
    const state = run([
      event("state.transition", 1, { transitionType: "RunStarted", runId: "r1" }),
      event("codon.started", 2, { codonId: "a", codonName: "Alpha", attempt: 1 }, 1000),
      event("assistant.action", 3, { codonId: "a", action: "message", content: "Reading\nthe data" }),
      event("assistant.action", 4, {
        codonId: "a",
        action: "tool_use",
        content: "",
        toolName: "Bash",
        toolUseId: "t1",
        toolInput: { command: "ls -la" },
      }),
      event("tool.result", 5, { codonId: "a", toolUseId: "t1", toolName: "Bash", isError: false }),
      event("token.usage", 6, { codonId: "a", inputTokens: 100, outputTokens: 20 }),
    ]);
    assert.deepEqual(state.running, { id: "a", name: "Alpha", attempt: 1, since: T0 + 1000 });
    assert.deepEqual(
      state.activity.map((line) => [line.kind, line.text, line.ok]),
      [
        ["text", "Reading\nthe data", undefined],
        ["tool", "Bash ls -la", true],
      ],
    );
    assert.equal(state.totals.inputTokens, 100);
    const done = reduceFrame(
      state,
      event("codon.completed", 7, { codonId: "a", success: true, cost: 0.5, duration: 2000 }),
      T0,
    );
    assert.equal(done.running, undefined);
    assert.deepEqual(
      timelineOf(done).map((line) => line.text),
      ["> run r1 started", "✓ a Alpha  2.0s  $0.5000"],
    );
    assert.deepEqual([done.totals.completed, done.totals.costUsd, done.rollbackTargets], [1, 0.5, ["a"]]);
  });

  it("shows an attempt a crash cut short as interrupted, not as failed for an unknown reason", () => {
    const interrupted = "interrupted";
    const state = run([
      event("codon.completed", 1, {
        codonId: "a",
        success: false,
        cost: 0,
        duration: 0,
        exitStatus: { type: "none" },
        endReasons: { stream: interrupted, toolBatch: interrupted, turn: interrupted, codon: interrupted },
      }),
    ]);
    assert.deepEqual(
      timelineOf(state).map((line) => [line.text, line.tone]),
      [["✗ a  interrupted (the runtime was killed during it)", "warn"]],
    );
  });

  it("ignores events it already applied (history overlapping live events)", () => {
    const first = event("info", 3, { message: "once" });
    const state = run([first, event("info", 2, { message: "older" }), first]);
    assert.deepEqual(
      timelineOf(state).map((line) => line.text),
      ["  once"],
    );
    assert.equal(state.lastSeq, 3);
  });

  it("keeps the timeline append-only: an older state still sees its own lines", () => {
    const one = run([event("info", 1, { message: "one" })]);
    const two = reduceFrame(one, event("info", 2, { message: "two" }), T0);
    const branch = reduceFrame(one, event("info", 2, { message: "other" }), T0);
    assert.deepEqual(
      timelineOf(one).map((l) => l.text),
      ["  one"],
    );
    assert.deepEqual(
      timelineOf(two).map((l) => l.text),
      ["  one", "  two"],
    );
    assert.deepEqual(
      timelineOf(branch).map((l) => l.text),
      ["  one", "  other"],
    );
  });

  it("parks on server.idle, ends on the run's end with its outcome and duration, and closes", () => {
    const parked = run([
      event("state.transition", 1, { transitionType: "RunStarted" }),
      event("server.idle", 2, { reason: "codon-completed", message: "Codon b failed. Send retry..." }),
    ]);
    assert.deepEqual([parked.phase, parked.parked], ["parked", "Codon b failed. Send retry..."]);
    const failed = reduceFrame(
      parked,
      event(
        "state.transition",
        3,
        { transitionType: "RunFailed", transition: { type: "RunFailed", data: { reason: "aborted" } } },
        4000,
      ),
      T0,
    );
    assert.deepEqual(failed.outcome, { kind: "aborted", durationMs: 4000 });
    assert.equal(failed.parked, undefined);
    assert.equal(connectionClosed(failed).connection, "closed");
  });

  it("shows the server's refusals and notices in the timeline", () => {
    const state = run([
      {
        kind: "unjournaled",
        type: "error",
        data: { message: "Cannot execute state-modifying commands in read-only mode" },
      },
      {
        kind: "unjournaled",
        type: "server.ready",
        data: { executionPath: "/x", agentRootPath: "/x/agentRoot", port: 7 },
      },
    ]);
    assert.deepEqual(
      timelineOf(state).map((l) => [l.text, l.tone]),
      [["! Cannot execute state-modifying commands in read-only mode", "fail"]],
    );
    assert.deepEqual(state.server, { executionPath: "/x", agentRootPath: "/x/agentRoot", port: 7 });
  });
});

describe("heartbeat, summary and text", () => {
  it("says what the run waits on after 10 s of silence, never while parked", () => {
    const rig = { ...initialTuiState(T0), phase: "rig" as const, lastRigLine: "npm install" };
    assert.equal(heartbeat(rig, T0 + 9_999), undefined);
    assert.equal(heartbeat(rig, T0 + 12_000), "... Rig running (12.0s without events, last: npm install)");
    assert.equal(
      heartbeat({ ...rig, phase: "model" }, T0 + 10_000),
      "... Model thinking (10.0s without events)",
    );
    assert.equal(heartbeat({ ...rig, phase: "parked" }, T0 + 60_000), undefined);
  });

  it("summarises the outcome with the workspace, and the resume command when the run did not complete", () => {
    const initial = initialTuiState(T0);
    const state: TuiState = {
      ...initial,
      outcome: { kind: "completed", durationMs: 61_000 },
      server: { executionPath: "/e", agentRootPath: "/e/agentRoot", outputDirectory: "/out", port: 1 },
      totals: {
        ...initial.totals,
        costUsd: 1.25,
        costSource: "simulated",
        inputTokens: 12_345,
        outputTokens: 678,
        completed: 3,
        skipped: 1,
      },
    };
    assert.deepEqual(summaryLines(state), {
      title: "Run Complete",
      lines: [
        "Codons     3 codon(s) completed, 0 failed, 0 ignored, 1 skipped",
        "Tokens     12,345 in, 678 out",
        "Cost       $1.2500 (simulated by the scripted agent; nothing was spent)",
        "Time       1m01s",
        "Workspace  /e/agentRoot",
        "Outputs    /out",
      ],
    });
    const stopped = summaryLines({ ...state, outcome: { kind: "aborted", durationMs: 1_000 } });
    assert.equal(stopped?.title, "Run Aborted");
    assert.equal(stopped?.lines.at(-1), "Resume     hankweave --execution /e");
  });

  it("lays the budget out as spent / limit per scope and currency", () => {
    const summary = sampleJournaled("budget.summary");
    assert.equal(summary.type, "budget.summary");
    if (summary.type !== "budget.summary") return;
    const rows = budgetRows(summary.data);
    assert.deepEqual(rows[0], ["Scope", "Dollars", "Time", "Output tokens"]);
    assert.equal(rows[1]?.[0], "run");
    const text = tableText(rows);
    assert.ok(text.every((line) => line.length <= 120));
  });

  it("keeps lines on one line within the width, and folds tool calls to their telling argument", () => {
    assert.equal(oneLine("a\nb\tc", 10), "a b c");
    assert.equal(oneLine("x".repeat(20), 5), "xxxx…");
    assert.equal(toolSummary("Write", { file_path: "notes.md", content: "..." }), "Write notes.md");
    assert.equal(toolSummary("Think", {}), "Think");
  });
});

describe("the summary box's long lines", () => {
  it("folds a long path or command under its label instead of cutting it", () => {
    const resume = `Resume     hankweave --execution /home/someone/.hankweave-executions/20261205T120000Z-abcdef-0123456789`;
    const folded = foldLine(resume, 40, 11);
    assert.ok(folded.length > 1);
    assert.ok(folded.every((part) => part.length <= 40));
    assert.equal(folded.map((part, i) => (i === 0 ? part : part.slice(11))).join(""), resume);
  });
});
