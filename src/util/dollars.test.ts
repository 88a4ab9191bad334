import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatUsd, reachedUsd, remainingUsd, roundUsd, sumUsd } from "./dollars.ts";

describe("dollars", () => {
  it("rounds to micro-dollars so that sums and differences are exact to the cent and beyond", () => {
    assert.equal(remainingUsd(5, sumUsd([0.8, 3.5])), 0.7);
    assert.equal(sumUsd([0.1, 0.2]), 0.3);
    assert.equal(roundUsd(0.0000004), 0);
    assert.equal(roundUsd(0.0000005), 0.000001);
  });
  it("never leaves less than nothing", () => {
    assert.equal(remainingUsd(0.5, 0.8), 0);
  });
  it("compares at micro-dollar precision", () => {
    assert.equal(reachedUsd(0.1 + 0.2, 0.3), true);
    assert.equal(reachedUsd(0.299999, 0.3), false);
  });
  it("formats with four decimals", () => {
    assert.equal(formatUsd(0.7), "$0.7000");
    assert.equal(formatUsd(12.34567), "$12.3457");
  });
});
