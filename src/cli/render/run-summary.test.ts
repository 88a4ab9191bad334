import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { initialRunState, type RunState } from "../../journal/index.ts";
import { emptyCodonRecord } from "../../journal/run-state.ts";
import { type CostSource, type RunView, RunViewFold } from "../../journal/run-view.ts";
import { formatDuration, renderHeartbeat, renderRunSummary } from "./run-summary.ts";

function stateWith(records: Array<Partial<RunState["codons"][number]> & { id: string }>): RunState {
  const state = initialRunState();
  return {
    ...state,
    codons: records.map((r) => ({ ...emptyCodonRecord(r.id), ...r })),
    totals: { ...state.totals, cost: 1.5, inputTokens: 2_500_000, outputTokens: 42, cacheReadTokens: 900 },
  };
}

function viewWith(state: RunState, costSource: CostSource, dataSourceChangedBy: string[] = []): RunView {
  return { ...new RunViewFold(state).view(), costSource, dataSourceChangedBy };
}

describe("run summary and heartbeat lines", () => {
  it("says the tokens are not reported when no agent reported usage, instead of 0 in, 0 out", () => {
    const state = { ...stateWith([{ id: "a", status: "completed" }]), totals: initialRunState().totals };
    const lines = renderRunSummary(viewWith(state, "none"), "completed", 1_000);
    assert.equal(lines[1], "  Tokens:    not reported by the agent");
  });

  it("formats durations from milliseconds to hours", () => {
    assert.deepEqual([850, 42_000, 65_000, 3_725_000].map(formatDuration), [
      "850ms",
      "42s",
      "1m 05s",
      "1h 02m",
    ]);
  });

  it("counts every codon outcome (a codon a Ctrl-C cut short as stopped, one a crash cut short as interrupted), shows cache tokens and says when part of the cost is simulated", () => {
    const state = stateWith([
      { id: "a", status: "completed" },
      { id: "b", status: "failed" },
      { id: "c", status: "failed", failureIgnored: true },
      { id: "d", status: "skipped" },
      {
        id: "e",
        status: "failed",
        endReasons: { stream: "aborted", toolBatch: "aborted", turn: "aborted", codon: "aborted" },
      },
      {
        id: "f",
        status: "failed",
        endReasons: {
          stream: "interrupted",
          toolBatch: "interrupted",
          turn: "interrupted",
          codon: "interrupted",
        },
      },
    ]);
    assert.deepEqual(renderRunSummary(viewWith(state, "mixed"), "aborted", 3_000), [
      "✗ Run aborted: 1 codon(s) completed, 1 failed, 1 ignored, 1 stopped, 1 interrupted, 1 skipped",
      "  Tokens:    2,500,000 in, 42 out (cache: 900 read, 0 written)",
      "  Cost:      $1.5000 (part of it simulated by the scripted agent)",
      "  Elapsed:   3s",
    ]);
    const real = renderRunSummary(viewWith(state, "real"), "failed", 0);
    assert.equal(real[2], "  Cost:      $1.5000");
    assert.equal(real.length, 4, "no data line when the data source did not change");
  });

  it("says when the read-only data source changed, and during which codons", () => {
    const state = stateWith([{ id: "a", status: "completed" }]);
    const lines = renderRunSummary(viewWith(state, "none", ["vandal", "fix#1"]), "completed", 0);
    assert.equal(
      lines.at(-1),
      "  Data:      the read-only data source changed during vandal, fix#1 (see the warnings above)",
    );
  });

  it("names the phase: the active codon and its retry, between codons, or parked", () => {
    const base = { now: 75_000, startedAt: 0, lastTool: undefined, parked: false };
    const running = stateWith([
      { id: "a", status: "completed" },
      { id: "b#1", status: "initializing", attempts: 1 },
    ]);
    assert.equal(
      renderHeartbeat({ ...base, state: running }),
      "… 1m 15s elapsed · b#1 initializing, attempt 2",
    );
    const idle = stateWith([{ id: "a", status: "completed" }]);
    assert.equal(renderHeartbeat({ ...base, state: idle }), "… 1m 15s elapsed · between codons");
    assert.equal(
      renderHeartbeat({
        ...base,
        state: idle,
        parked: true,
        lastTool: { name: "Write", target: "a.md", at: 70_000 },
      }),
      "… 1m 15s elapsed · parked: waiting for retry, skip or stop · last tool: Write a.md (5s ago)",
    );
  });
});
