import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FailureReason } from "../../harness/failure-reason.ts";
import { budgetExceededFailure, type FailurePolicyInput, resolveFailureAction } from "./failure-policy.ts";

const transient: FailureReason = { type: "api-error", retriable: true, message: "API server error: 500" };
const hinted: FailureReason = {
  type: "rate-limit",
  retriable: true,
  message: "API rate limit: 429",
  retryAfterMs: 7000,
};
const permanent: FailureReason = { type: "api-error", retriable: false, message: "API auth error: 401" };

const input = (overrides: Partial<FailurePolicyInput>): FailurePolicyInput => ({
  onFailure: undefined,
  reason: transient,
  attempt: 1,
  retryConfig: undefined,
  headless: false,
  ...overrides,
});

describe("resolveFailureAction: abort", () => {
  it("is the default and parks on a retriable failure", () => {
    assert.deepEqual(resolveFailureAction(input({})), { kind: "stay-active" });
    assert.deepEqual(resolveFailureAction(input({ onFailure: "abort" })), { kind: "stay-active" });
  });
  it("fails the run on a retriable failure when headless", () => {
    assert.deepEqual(resolveFailureAction(input({ headless: true })), {
      kind: "fail-run",
      cause: "headless-abort",
    });
  });
  it("fails the run on a permanent failure, headless or not", () => {
    assert.deepEqual(resolveFailureAction(input({ reason: permanent })), {
      kind: "fail-run",
      cause: "permanent",
    });
    assert.deepEqual(resolveFailureAction(input({ reason: permanent, headless: true })), {
      kind: "fail-run",
      cause: "permanent",
    });
  });
});

describe("resolveFailureAction: retry", () => {
  const retryConfig = { maxAttempts: 3, delayMs: 1000, maxDelayMs: 60_000 };

  it("retries a retriable failure with exponential waits while attempts remain", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", retryConfig, attempt: 1 })), {
      kind: "retry",
      delayMs: 1000,
      nextAttempt: 2,
      maxAttempts: 3,
    });
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", retryConfig, attempt: 2 })), {
      kind: "retry",
      delayMs: 2000,
      nextAttempt: 3,
      maxAttempts: 3,
    });
  });
  it("fails the run once the last attempt failed", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", retryConfig, attempt: 3 })), {
      kind: "fail-run",
      cause: "retries-exhausted",
    });
  });
  it("never retries a permanent failure", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", retryConfig, reason: permanent })), {
      kind: "fail-run",
      cause: "permanent",
    });
  });
  it("waits for the Retry-After hint, capped at maxDelayMs", () => {
    const action = resolveFailureAction(
      input({ onFailure: "retry", retryConfig, reason: hinted, attempt: 2 }),
    );
    assert.deepEqual(action, { kind: "retry", delayMs: 7000, nextAttempt: 3, maxAttempts: 3 });
    const capped = resolveFailureAction(
      input({ onFailure: "retry", retryConfig: { ...retryConfig, maxDelayMs: 5000 }, reason: hinted }),
    );
    assert.deepEqual(capped, { kind: "retry", delayMs: 5000, nextAttempt: 2, maxAttempts: 3 });
  });
  it("uses the schema defaults without a retryConfig (3 attempts, 1 s doubling)", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", attempt: 2 })), {
      kind: "retry",
      delayMs: 2000,
      nextAttempt: 3,
      maxAttempts: 3,
    });
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", attempt: 3 })), {
      kind: "fail-run",
      cause: "retries-exhausted",
    });
  });
  it("with maxAttempts 1 never retries", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", retryConfig: { maxAttempts: 1 } })), {
      kind: "fail-run",
      cause: "retries-exhausted",
    });
  });
  it("retries the same way when headless", () => {
    assert.equal(
      resolveFailureAction(input({ onFailure: "retry", retryConfig, headless: true })).kind,
      "retry",
    );
  });
});

describe("resolveFailureAction: ignore", () => {
  it("continues past retriable and permanent failures", () => {
    assert.deepEqual(resolveFailureAction(input({ onFailure: "ignore" })), { kind: "ignore" });
    assert.deepEqual(
      resolveFailureAction(input({ onFailure: "ignore", reason: permanent, headless: true })),
      {
        kind: "ignore",
      },
    );
  });
});

describe("budgetExceededFailure", () => {
  const exceeded = {
    currency: "cost",
    limit: 0.7,
    used: 0.8,
    message: "Cost $0.8000 exceeded limit $0.7000 [shared pool]",
  } as const;

  it("is a permanent failure naming the tripped limit", () => {
    assert.deepEqual(budgetExceededFailure(exceeded), {
      type: "unknown",
      retriable: false,
      message: "Budget exceeded: Cost $0.8000 exceeded limit $0.7000 [shared pool]",
    });
  });
  it("so onFailure retry does not retry it, and ignore continues", () => {
    const reason = budgetExceededFailure(exceeded);
    assert.deepEqual(resolveFailureAction(input({ onFailure: "retry", reason })), {
      kind: "fail-run",
      cause: "permanent",
    });
    assert.deepEqual(resolveFailureAction(input({ onFailure: "ignore", reason })), { kind: "ignore" });
  });
});
