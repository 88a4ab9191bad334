import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { initialRunState, readAll, reduce } from "../../src/journal/index.ts";
import { type HankTestRun, runHankForTest } from "../../src/testing/index.ts";

const fixture = fileURLToPath(new URL("../fixtures/minimal-loop", import.meta.url));

const LIFECYCLE = new Set(["codon.started", "codon.completed", "loop.iteration.completed"]);
const OK_REASONS = { stream: "completed", toolBatch: "completed", turn: "completed", codon: "completed" };
const START = "2025-01-01T00:00:00.000Z";

describe("the minimal-loop fixture, dry-run with -m scripted", () => {
  let run: HankTestRun;
  before(async () => {
    run = await runHankForTest({ hank: fixture, model: "scripted" });
  });
  after(() => run.remove());

  it("produces the spec's event sequence exactly", () => {
    const started = (codonId: string, codonName: string, sessionId: string) => ({
      type: "codon.started",
      data: { codonId, codonName, sessionId, startTime: START, attempt: 1 },
    });
    // Our addition: the agent's final text (the echoed prompt) rides on codon.completed as `result`.
    const completed = (codonId: string) => {
      const text = `Append the line "${codonId.startsWith("append-a") ? "A" : "B"}" to log.txt.\nKeep every earlier line.`;
      return {
        type: "codon.completed",
        data: {
          codonId,
          success: true,
          cost: 0,
          duration: 0,
          exitStatus: { type: "success" },
          endReasons: OK_REASONS,
          attempt: 1,
          result: { text, truncated: false, chars: text.length },
        },
      };
    };
    const iteration = (n: number, isFinal: boolean) => ({
      type: "loop.iteration.completed",
      data: {
        loopId: "append-loop",
        iteration: n,
        durationMs: 0,
        costUsd: 0,
        tokensUsed: 56,
        isFinal,
        ...(isFinal && { terminationReason: "iteration_limit" }),
      },
    });
    const seen = run.events.filter((e) => LIFECYCLE.has(e.type)).map(({ type, data }) => ({ type, data }));
    assert.deepEqual(seen, [
      started("append-a#0", "Codon A appends", "s-1"),
      completed("append-a#0"),
      started("append-b#0", "Codon B appends", "s-2"),
      completed("append-b#0"),
      iteration(0, false),
      started("append-a#1", "Codon A appends", "s-3"),
      completed("append-a#1"),
      started("append-b#1", "Codon B appends", "s-4"),
      completed("append-b#1"),
      iteration(1, true),
    ]);
  });

  it("completes with exit code 0 and ends with budget.summary, RunCompleted and server.idle", () => {
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode, message: run.result.message },
      { status: "completed", exitCode: 0, message: "All codons completed" },
    );
    const tail = run.events
      .slice(-3)
      .map((e) => (e.type === "state.transition" ? e.data.transitionType : e.type));
    assert.deepEqual(tail, ["budget.summary", "RunCompleted", "server.idle"]);
    assert.deepEqual(run.data("server.idle"), [
      { reason: "all-codons-completed", message: "All codons completed" },
    ]);
  });

  it("echoes each prompt file as the agent's message (no directives in the fixture)", () => {
    assert.deepEqual(
      run.data("assistant.action").map((a) => [a.codonId, a.action, a.content]),
      [
        ["append-a#0", "message", 'Append the line "A" to log.txt.\nKeep every earlier line.'],
        ["append-b#0", "message", 'Append the line "B" to log.txt.\nKeep every earlier line.'],
        ["append-a#1", "message", 'Append the line "A" to log.txt.\nKeep every earlier line.'],
        ["append-b#1", "message", 'Append the line "B" to log.txt.\nKeep every earlier line.'],
      ],
    );
  });

  it("reduces to a completed run with four completed codons and a finished loop", () => {
    const { state } = run;
    assert.deepEqual(state.runs, [{ id: "run-1", status: "completed", startedAt: START, endedAt: START }]);
    assert.equal(state.currentRunId, null);
    assert.deepEqual(
      state.codons.map((c) => [c.id, c.status, c.attempts, c.sessionId]),
      [
        ["append-a#0", "completed", 1, "s-1"],
        ["append-b#0", "completed", 1, "s-2"],
        ["append-a#1", "completed", 1, "s-3"],
        ["append-b#1", "completed", 1, "s-4"],
      ],
    );
    assert.deepEqual(state.loops["append-loop"], {
      id: "append-loop",
      iterationsCompleted: 2,
      lastIteration: 1,
      isFinal: true,
      terminationReason: "iteration_limit",
      costUsd: 0,
      durationMs: 0,
      tokensUsed: 112,
    });
  });

  it("persists the plan with both iterations and the loop terminated on its limit", () => {
    assert.deepEqual(
      run.result.plan.entries.map((e) => e.runtimeId),
      ["append-a#0", "append-b#0", "append-a#1", "append-b#1"],
    );
    assert.deepEqual(run.result.plan.loops, {
      "append-loop": {
        iteration: 1,
        terminated: true,
        endCause: "iteration_limit",
        terminationReason: "iteration_limit",
      },
    });
  });

  it("writes a journal that validates against the union and reduces to the same state", async () => {
    const read = await readAll(run.journalPath, { validate: true });
    assert.deepEqual({ skipped: read.skipped, torn: read.torn }, { skipped: 0, torn: false });
    assert.deepEqual(read.events, run.events);
    assert.deepEqual(
      read.events.map((e: JournaledEvent) => e.seq),
      read.events.map((_, index) => index + 1),
    );
    assert.deepEqual(read.events.reduce(reduce, initialRunState()), run.state);
  });

  it("leaves no timer behind", () => {
    assert.deepEqual(run.clock.pending(), []);
  });
});
