import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type LoopOptions, loop, WorkflowArgumentError } from "../../src/workflows/index.ts";

/**
 * `loop()` has one async contract: whatever is wrong with its arguments, the call returns a promise
 * that rejects with `WorkflowArgumentError`; it never throws synchronously.
 */
describe("loop(): one async contract", () => {
  const wrong: ReadonlyArray<[string, unknown]> = [
    ["steps is not an array", { steps: "coder", input: "x" }],
    ["no options at all", undefined],
    [
      "a negative maxIterations",
      { steps: [{ name: "a", model: "scripted" }], input: "x", maxIterations: -1 },
    ],
    ["an unknown model", { steps: [{ name: "a", model: "nobody/never" }], input: "x" }],
  ];
  for (const [what, options] of wrong) {
    test(`${what}: a rejected promise, never a synchronous throw`, async () => {
      let returned: Promise<unknown> | undefined;
      assert.doesNotThrow(() => {
        returned = loop(options as LoopOptions);
      });
      assert.ok(returned instanceof Promise);
      await assert.rejects(returned, WorkflowArgumentError);
    });
  }
});
