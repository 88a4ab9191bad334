import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../events/events.ts";
import { traceEventOf } from "./trace-event.ts";

const SECRET = "sk-ant-projection-secret-0123456789";

function journaled(type: string, data: Record<string, unknown>): JournaledEvent {
  return { v: 1, id: "e1", seq: 7, timestamp: "2026-12-06T04:00:00.000Z", type, data } as JournaledEvent;
}

describe("traceEventOf", () => {
  it("keeps the structural fields of a tool call and its result, never their content", () => {
    const call = traceEventOf(
      journaled("assistant.action", {
        codonId: "a",
        action: "tool_use",
        content: SECRET,
        toolName: "Bash",
        toolInput: { command: `echo ${SECRET}` },
        toolUseId: "t1",
      }),
    );
    assert.deepEqual(call?.data, { codonId: "a", toolUseId: "t1", toolName: "Bash" });
    const result = traceEventOf(
      journaled("tool.result", {
        codonId: "a",
        toolUseId: "t1",
        toolName: "Bash",
        result: SECRET,
        truncated: false,
        originalLength: 35,
        executionTimeMs: 12,
        isError: false,
      }),
    );
    assert.deepEqual(result?.data, { toolUseId: "t1", executionTimeMs: 12, isError: false });
  });

  it("keeps a failure's type and a budget's currency, never the failure's message", () => {
    const end = traceEventOf(
      journaled("codon.completed", {
        codonId: "a",
        success: false,
        cost: 0.5,
        duration: 30,
        exitStatus: "error",
        failureReason: { type: "api-error", retriable: true, message: SECRET },
        budgetExceeded: { currency: "usd", limit: 1, used: 2 },
      }),
    );
    assert.deepEqual(end?.data, {
      codonId: "a",
      success: false,
      cost: 0.5,
      duration: 30,
      failureType: "api-error",
      budgetCurrency: "usd",
    });
    assert.equal(JSON.stringify(end).includes(SECRET), false);
  });

  it("passes the run's start and end, and drops what opens no span", () => {
    const transition = (transitionType: string, data: Record<string, unknown> = {}) =>
      journaled("state.transition", {
        transitionType,
        runId: "r1",
        transition: { type: transitionType, data },
        resultingState: { currentRunId: "r1", runCount: 1, totalCost: 0, currentRunCost: 0 },
      });
    assert.deepEqual(traceEventOf(transition("RunFailed", { reason: "aborted" }))?.data, {
      transitionType: "RunFailed",
      runId: "r1",
      aborted: true,
    });
    assert.equal(traceEventOf(transition("CostsUpdated")), undefined);
    assert.equal(
      traceEventOf(journaled("assistant.action", { codonId: "a", action: "message", content: SECRET })),
      undefined,
    );
    assert.equal(traceEventOf(journaled("file.updated", { codonId: "a" })), undefined);
  });
});
