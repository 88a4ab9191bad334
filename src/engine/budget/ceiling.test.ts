import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { effectiveCeiling } from "./ceiling.ts";

describe("effectiveCeiling", () => {
  it("takes the lower of the runtime and hank values, field by field", () => {
    assert.deepEqual(
      effectiveCeiling({
        runtime: { maxDollars: 3, maxTimeSeconds: 900 },
        hank: { maxDollars: 5, maxTimeSeconds: 60 },
      }),
      { maxDollars: 3, maxTimeSeconds: 60 },
    );
  });
  it("keeps a value set on one side only", () => {
    assert.deepEqual(effectiveCeiling({ runtime: { maxTimeSeconds: 120 }, hank: { maxDollars: 5 } }), {
      maxDollars: 5,
      maxTimeSeconds: 120,
    });
  });
  it("lets a CLI flag replace the value, above the others too", () => {
    assert.deepEqual(
      effectiveCeiling({
        runtime: { maxDollars: 3 },
        hank: { maxDollars: 5, maxTimeSeconds: 60 },
        cli: { maxDollars: 20 },
      }),
      { maxDollars: 20, maxTimeSeconds: 60 },
    );
  });
  it("is empty when nothing sets a ceiling", () => {
    assert.deepEqual(effectiveCeiling({}), {});
  });
});
