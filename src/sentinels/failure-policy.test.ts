import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideAfterFailure } from "./failure-policy.ts";

const permanent = { kind: "model", retriable: false } as const;
const transient = { kind: "model", retriable: true } as const;

describe("sentinel failure policy", () => {
  it("unloads on a fatal model failure unless unloadOnFatalError is false", () => {
    assert.deepEqual(decideAfterFailure(permanent, 1, {}), {
      kind: "unload",
      reason: "fatal-error",
      errorType: "configuration",
    });
    const tolerant = { errorHandling: { maxConsecutiveFailures: 2, unloadOnFatalError: false } };
    assert.deepEqual(decideAfterFailure(permanent, 1, tolerant), { kind: "keep" });
    assert.deepEqual(decideAfterFailure(permanent, 2, tolerant), {
      kind: "unload",
      reason: "consecutive-failures",
    });
  });

  it("unloads after maxConsecutiveFailures (default 3) failures in a row of any kind", () => {
    for (const failure of [
      transient,
      { kind: "rejected" },
      { kind: "template" },
      { kind: "write" },
    ] as const) {
      assert.deepEqual(decideAfterFailure(failure, 2, {}), { kind: "keep" });
      assert.deepEqual(decideAfterFailure(failure, 3, {}), {
        kind: "unload",
        reason: "consecutive-failures",
      });
    }
  });

  it("keeps a conversational sentinel with continueOnError going, fatal errors aside", () => {
    const conversational = {
      conversational: { trimmingStrategy: { type: "maxTurns", maxTurns: 5 } as const, continueOnError: true },
    };
    assert.deepEqual(decideAfterFailure(transient, 10, conversational), { kind: "keep" });
    assert.equal(decideAfterFailure(permanent, 1, conversational).kind, "unload");
  });
});
