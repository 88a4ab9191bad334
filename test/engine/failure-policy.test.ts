import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodonInput } from "../../src/hank/schema/index.ts";
import { type HankTestOptions, hankOf, runHankForTest, scriptedCodon } from "../../src/testing/index.ts";
import { infos, lifecycle } from "./support.ts";

const ERROR_REASONS = { stream: "error", toolBatch: "completed", turn: "error", codon: "error" };
const SERVER_500 = "API Error: 500 Internal Server Error (overloaded_error)";

/** A failing codon `a` followed by a codon `b` that only runs if the run goes on. */
async function failingThenNext(
  script: string,
  fields: Partial<CodonInput>,
  extra: Partial<HankTestOptions> = {},
) {
  return runHankForTest({
    hank: hankOf([scriptedCodon("a", script, fields), scriptedCodon("b", "@say b")]),
    ...extra,
  });
}

describe("failure policies (scenario 10)", () => {
  it("abort + permanent error: the run fails with exit code 1 and the next codon never starts", async (t) => {
    const run = await failingThenNext("@fail invalid_request_error: Invalid model", { onFailure: "abort" });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.deepEqual(run.data("codon.completed"), [
      {
        codonId: "a",
        success: false,
        cost: 0,
        duration: 0,
        exitStatus: { type: "error", code: 1 },
        failureReason: {
          type: "api-error",
          retriable: false,
          message: "API invalid request: invalid_request_error: Invalid model",
        },
        endReasons: ERROR_REASONS,
        attempt: 1,
        failedDuring: "running",
      },
    ]);
    const message =
      "Codon a failed (permanent failure): API invalid request: invalid_request_error: Invalid model";
    assert.deepEqual(run.result.status, "failed");
    assert.deepEqual(run.result.exitCode, 1);
    assert.deepEqual(run.result.message, message);
    assert.deepEqual(run.data("error"), [{ message, fatal: true, severity: "fatal" }]);
    assert.deepEqual(
      run.state.runs.map((r) => r.status),
      ["failed"],
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status, c.attempts]),
      [["a", "failed", 1]],
    );
  });

  it("ignore + permanent error: failureIgnored is recorded, the next codon runs and the run exits 0", async (t) => {
    const run = await failingThenNext("@fail Your credit balance is too low", { onFailure: "ignore" });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a ignored",
      "started b",
      "completed b ok",
    ]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { success: a?.success, failureIgnored: a?.failureIgnored, retriable: a?.failureReason?.retriable },
      { success: false, failureIgnored: true, retriable: false },
    );
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "completed", exitCode: 0 },
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status, c.failureIgnored]),
      [
        ["a", "failed", true],
        ["b", "completed", false],
      ],
    );
  });

  it("retry + transient 500: 'Retrying codon' is narrated and a second attempt succeeds", async (t) => {
    const run = await failingThenNext(`@fail attempts=1 ${SERVER_500}\n@say recovered`, {
      onFailure: "retry",
      retryConfig: { maxAttempts: 2, delayMs: 0, maxDelayMs: 0 },
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a failed",
      "started a",
      "completed a ok",
      "started b",
      "completed b ok",
    ]);
    assert.deepEqual(infos(run.events), [
      `Retrying codon a (attempt 2 of 2) in 0ms: API server error: ${SERVER_500}`,
    ]);
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.codonId, s.attempt, s.sessionId]),
      [
        ["a", 1, "s-1"],
        ["a", 2, "s-2"],
        ["b", 1, "s-3"],
      ],
    );
    assert.deepEqual(run.data("codon.completed")[0]?.failureReason, {
      type: "api-error",
      retriable: true,
      message: `API server error: ${SERVER_500}`,
    });
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status, c.attempts]),
      [
        ["a", "completed", 2],
        ["b", "completed", 1],
      ],
    );
    assert.equal(run.result.exitCode, 0);
  });

  it("retry + usage-limit error: no retry, the run fails", async (t) => {
    const run = await failingThenNext("@fail GoUsageLimitError: monthly usage limit reached", {
      onFailure: "retry",
      retryConfig: { maxAttempts: 3, delayMs: 0, maxDelayMs: 0 },
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.deepEqual(infos(run.events), []);
    assert.equal(
      run.result.message,
      "Codon a failed (permanent failure): API billing/usage error: GoUsageLimitError: monthly usage limit reached",
    );
    assert.equal(run.result.exitCode, 1);
  });

  it("retry: when every attempt fails, the run fails with the retries exhausted", async (t) => {
    const run = await failingThenNext(`@fail ${SERVER_500}`, {
      onFailure: "retry",
      retryConfig: { maxAttempts: 3, delayMs: 0, maxDelayMs: 0 },
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a failed",
      "started a",
      "completed a failed",
      "started a",
      "completed a failed",
    ]);
    assert.deepEqual(
      run.data("codon.completed").map((c) => c.attempt),
      [1, 2, 3],
    );
    assert.equal(run.result.message, `Codon a failed (retries exhausted): API server error: ${SERVER_500}`);
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status, c.attempts]),
      [["a", "failed", 3]],
    );
  });
});

describe("a retriable failure under abort (scenario 11)", () => {
  it("fails a headless run at once (exit 1), never parking it", async (t) => {
    const run = await failingThenNext("@fail API Error: 503 Service Unavailable", {});
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.equal(run.data("codon.completed")[0]?.failureReason?.retriable, true);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode, message: run.result.message },
      {
        status: "failed",
        exitCode: 1,
        message:
          "Codon a failed (retriable, but onFailure is 'abort' and --headless has no client to retry it): API server error: API Error: 503 Service Unavailable",
      },
    );
    assert.deepEqual(run.clock.pending(), []);
  });

  it("also ends a run with no client attached when not headless", async (t) => {
    const run = await failingThenNext(
      "@fail API Error: 503 Service Unavailable",
      {},
      {
        options: { headless: false },
      },
    );
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.equal(
      run.result.message,
      "Codon a failed (no client is attached to retry it): API server error: API Error: 503 Service Unavailable",
    );
    assert.equal(run.result.exitCode, 1);
  });
});

describe("failures outside the agent's turn", () => {
  it("a script the agent refuses fails the codon while initializing, before any session", async (t) => {
    const run = await failingThenNext("@usage input=abc output=1", {});
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["completed a failed"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { failedDuring: a?.failedDuring, reason: a?.failureReason },
      {
        failedDuring: "initializing",
        reason: {
          type: "unknown",
          retriable: false,
          message:
            'Bad scripted prompt (1 error): line 1: @usage: input must be a whole number of tokens, got "abc"',
        },
      },
    );
    assert.equal(run.result.exitCode, 1);
  });

  it("a failing finish hook (checkpoint, outputs) fails the codon and the run", async (t) => {
    const finished: Array<[string, boolean]> = [];
    const run = await failingThenNext(
      "@say fine",
      {},
      {
        hooks: {
          finishCodon: async (context) => {
            finished.push([context.entry.runtimeId, context.success]);
            return { ok: false, message: "Output copy failed: report.md" };
          },
        },
      },
    );
    t.after(run.remove);
    assert.deepEqual(finished, [["a", true]]);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      {
        success: a?.success,
        failedDuring: a?.failedDuring,
        exitStatus: a?.exitStatus,
        codonEnd: a?.endReasons?.codon,
      },
      { success: false, failedDuring: "running", exitStatus: { type: "success" }, codonEnd: "error" },
    );
    assert.deepEqual(a?.failureReason, {
      type: "unknown",
      retriable: false,
      message: "Output copy failed: report.md",
    });
    // Recorded as failed, so a resumed run runs it again instead of skipping it.
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status]),
      [["a", "failed"]],
    );
    assert.deepEqual(
      { status: run.result.status, message: run.result.message },
      { status: "failed", message: "Output copy failed: report.md" },
    );
  });
});
