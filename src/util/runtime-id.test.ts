import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRuntimeId, runtimeIdOf } from "./runtime-id.ts";

describe("runtime ids", () => {
  it("adds the 0-based iteration inside loops only", () => {
    assert.equal(runtimeIdOf("review"), "review");
    assert.equal(runtimeIdOf("review", 0), "review#0");
    assert.equal(runtimeIdOf("review", 12), "review#12");
  });

  it("splits at the last #<digits> suffix", () => {
    assert.deepEqual(parseRuntimeId("review"), { configId: "review" });
    assert.deepEqual(parseRuntimeId("review#0"), { configId: "review", iteration: 0 });
    assert.deepEqual(parseRuntimeId("a#b#3"), { configId: "a#b", iteration: 3 });
  });

  it("keeps ids whose suffix is not an iteration whole", () => {
    assert.deepEqual(parseRuntimeId("x#01"), { configId: "x#01" });
    assert.deepEqual(parseRuntimeId("#3"), { configId: "#3" });
    assert.deepEqual(parseRuntimeId("x#"), { configId: "x#" });
  });
});
