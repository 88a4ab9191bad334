import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backoffDelayMs } from "./retry-backoff.ts";

describe("backoffDelayMs", () => {
  const config = { delayMs: 1000, maxDelayMs: 60_000 };

  it("doubles from delayMs with each retry already made", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, config)),
      [1000, 2000, 4000, 8000, 16_000, 32_000],
    );
  });

  it("caps the computed wait at maxDelayMs", () => {
    assert.equal(backoffDelayMs(6, config), 60_000);
    assert.equal(backoffDelayMs(1000, config), 60_000);
  });

  it("uses a Retry-After hint instead of the computed wait", () => {
    assert.equal(backoffDelayMs(3, config, 500), 500);
    assert.equal(backoffDelayMs(0, config, 0), 0);
  });

  it("caps a Retry-After hint at maxDelayMs too", () => {
    assert.equal(backoffDelayMs(0, config, 120_000), 60_000);
  });

  it("a zero delay stays zero and a zero cap allows no wait", () => {
    assert.equal(backoffDelayMs(4, { delayMs: 0, maxDelayMs: 60_000 }), 0);
    assert.equal(backoffDelayMs(2, { delayMs: 1000, maxDelayMs: 0 }), 0);
  });

  it("treats a negative or fractional index as its whole, non-negative part", () => {
    assert.equal(backoffDelayMs(-2, config), 1000);
    assert.equal(backoffDelayMs(1.7, config), 2000);
  });
});
