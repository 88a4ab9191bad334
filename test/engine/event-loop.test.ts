import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runHankForTest } from "../../src/testing/run-hank-for-test.ts";

const ITERATIONS = 300;

describe("the engine and the event loop", () => {
  it("lets a timer cancel a run whose codons finish without any I/O", async () => {
    const controller = new AbortController();
    // A real timer: it can only fire if the engine yields to the event loop between codons.
    setTimeout(() => controller.abort(), 0);
    const run = await runHankForTest({
      hank: {
        hank: [
          {
            type: "loop",
            id: "spin",
            name: "Spin",
            terminateOn: { type: "iterationLimit", limit: ITERATIONS },
            codons: [
              {
                id: "noop",
                name: "No-op",
                model: "scripted",
                continuationMode: "fresh",
                promptText: "Done.",
              },
            ],
          },
        ],
      },
      signal: controller.signal,
    });
    try {
      assert.equal(run.result.status, "aborted");
      assert.ok(run.data("codon.completed").length < ITERATIONS, "the run stopped before its last iteration");
    } finally {
      run.remove();
    }
  });
});
