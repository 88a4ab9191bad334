import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs, sanitizeRetryAfterMs } from "./retry-after.ts";

describe("parseRetryAfterMs", () => {
  const cases: ReadonlyArray<readonly [string, number | undefined]> = [
    ["retry-after: 30", 30_000],
    ["Retry-After: 30", 30_000],
    ['{"retry_after": 30, "code": 429}', 30_000],
    ["retry after 60s", 60_000],
    ["Please retry after 1.5 seconds", 1500],
    ["try again in 2 minutes", 120_000],
    ["Please try again in about 3 minutes.", 180_000],
    ["retry after 500ms", 500],
    ["retry in 250 milliseconds", 250],
    ["wait 45 sec before the next request", 45_000],
    ["retryAfterMs: 1200", 1200],
    ["retry-after-ms: 30000", 30_000],
    ["retry-after: 0", 0],
    ["retry after 1 hour", 3_600_000],
    // Longer than an hour: ignored, not clamped.
    ["retry after 2 hours", undefined],
    ["retry-after: 3601", undefined],
    // A word that is not a unit makes the value unreadable.
    ["retry after 30 centiseconds", undefined],
    // Not durations: a date, a clock time, a thousands group.
    ["retry after 2026-07-30", undefined],
    ["retry after 07:30", undefined],
    ["retry-after: 1,000", undefined],
    // A bare duration is not a hint.
    ["Idle timeout: no events received for 180000ms", undefined],
    ["500ms", undefined],
    ["Internal Server Error", undefined],
    ["", undefined],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${expected}`, () => {
      assert.equal(parseRetryAfterMs(text), expected);
    });
  }

  it("reads a field on one line even when another header follows", () => {
    assert.equal(parseRetryAfterMs("retry-after: 12\nx-request-id: abc"), 12_000);
  });
});

describe("sanitizeRetryAfterMs", () => {
  it("rounds to whole milliseconds and keeps the one-hour bound inclusive", () => {
    assert.equal(sanitizeRetryAfterMs(12.6), 13);
    assert.equal(sanitizeRetryAfterMs(MAX_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
  });
  it("drops negative, non-finite and too long hints", () => {
    assert.equal(sanitizeRetryAfterMs(-1), undefined);
    assert.equal(sanitizeRetryAfterMs(Number.NaN), undefined);
    assert.equal(sanitizeRetryAfterMs(Number.POSITIVE_INFINITY), undefined);
    assert.equal(sanitizeRetryAfterMs(MAX_RETRY_AFTER_MS + 1), undefined);
    assert.equal(sanitizeRetryAfterMs(undefined), undefined);
  });
});
