import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon } from "../../src/testing/index.ts";
import { sentinel } from "./support.ts";

const SCRIPT = "@run false\n@write a.txt 1\n@run false\n@run false\n@run true\n@say done";

describe("sentinel triggers on a real run", () => {
  it("an event trigger with conditions fires on the matching events only", async () => {
    const failures = sentinel({
      trigger: {
        type: "event",
        on: ["tool.result"],
        conditions: [
          { path: "toolName", operator: "in", value: ["Bash"] },
          { path: "isError", operator: "equals", value: true },
        ],
      },
      userPromptText: "@say failed: <%= it.events[0].data.result.split('\\n').at(-1) %>",
    });
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", SCRIPT, { sentinels: [failures] })]),
    });
    assert.deepEqual(
      run.data("sentinel.output").map((o) => o.content),
      ["failed: [exit code 1]", "failed: [exit code 1]", "failed: [exit code 1]"],
    );
    run.remove();
  });

  it("a consecutive sequence fires on two failed commands in a row, not on two apart", async () => {
    const twice = sentinel({
      trigger: {
        type: "sequence",
        interestFilter: { on: ["tool.result"] },
        pattern: [
          { type: "tool.result", conditions: [{ path: "isError", operator: "equals", value: true }] },
          { type: "tool.result", conditions: [{ path: "isError", operator: "equals", value: true }] },
        ],
      },
      userPromptText: "@say <%= it.events.length %> failures in a row",
    });
    const run = await runHankForTest({ hank: hankOf([scriptedCodon("a", SCRIPT, { sentinels: [twice] })]) });
    // Results: fail, ok (Write), fail, fail, ok: only the 3rd and 4th are back to back.
    assert.deepEqual(
      run.data("sentinel.output").map((o) => [o.content, o.eventCount]),
      [["2 failures in a row", 2]],
    );
    run.remove();
  });

  it("a count strategy batches every n matches, the remainder at the codon's end", async () => {
    const everyTwo = sentinel({
      trigger: { type: "event", on: ["tool.result"] },
      execution: { strategy: "count", threshold: 2 },
      userPromptText: "@say <%= it.events.length %>",
      reportToWebsocket: { triggers: true },
    });
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", SCRIPT, { sentinels: [everyTwo] })]),
    });
    assert.deepEqual(
      run.data("sentinel.output").map((o) => o.content),
      ["2", "2", "1"],
    );
    assert.deepEqual(
      run.data("sentinel.triggered").map((t) => [t.triggerNumber, t.strategy, t.eventCount]),
      [
        [1, "count", 2],
        [2, "count", 2],
        [3, "count", 1],
      ],
    );
    run.remove();
  });
});
