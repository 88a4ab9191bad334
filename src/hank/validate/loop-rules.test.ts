import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LOOP_ABORT_TAIL } from "./loop-rules.ts";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

const contextLoop = { terminateOn: { type: "contextExceeded" } };

describe("loop rules", () => {
  it("rejects a fresh codon in a contextExceeded loop", () => {
    const report = run(hankOf([loop("l", [loopCodon("a", { checkpointedFiles: ["x"] })], contextLoop)]));
    assert.deepEqual(brief(only(report, "context-loop-fresh-codon")), {
      severity: "error",
      code: "context-loop-fresh-codon",
      path: ["hank", 0, "codons", 0, "continuationMode"],
      message:
        'Loop with contextExceeded termination cannot contain codons with continuationMode "fresh": codon "a" in loop "l" starts a new session every iteration, so its context never fills.',
    });
  });

  it("accepts a contextExceeded loop of continue-previous codons", () => {
    const body = [loopCodon("a", { continuationMode: "continue-previous", checkpointedFiles: ["x"] })];
    const report = run(hankOf([codon("first", { checkpointedFiles: ["x"] }), loop("l", body, contextLoop)]));
    assert.deepEqual(report.issues, []);
  });

  it("warns with the reference text when a loop codon keeps the default abort policy", () => {
    const report = run(
      hankOf([loop("append-loop", [codon("append-a"), codon("append-b", { onFailure: "abort" })])]),
    );
    assert.deepEqual(withCode(report, "loop-codon-abort").map(brief), [
      {
        severity: "warning",
        code: "loop-codon-abort",
        path: ["hank", 0, "codons", 0],
        message:
          "loop codon defaults to 'onFailure: abort'. A single transient failure (idle timeout, one-off provider error) on any iteration will halt the entire loop run. Consider 'onFailure: retry' (with retryConfig for bounded attempts) or 'onFailure: ignore' to keep the loop progressing across transient blips.",
      },
      {
        severity: "warning",
        code: "loop-codon-abort",
        path: ["hank", 0, "codons", 1, "onFailure"],
        message: `loop codon sets 'onFailure: abort'. ${LOOP_ABORT_TAIL}`,
      },
    ]);
    assert.equal(run(hankOf([codon("top")])).issues.length, 0);
  });

  it("warns about loop rig operations without allowFailure", () => {
    const rig = [
      { type: "command", command: { run: "mkdir out" } },
      { type: "command", command: { run: "mkdir -p out" }, allowFailure: true },
    ];
    const report = run(hankOf([loop("l", [loopCodon("a", { rigSetup: rig })])]));
    assert.deepEqual(brief(only(report, "loop-rig-without-allow-failure")), {
      severity: "warning",
      code: "loop-rig-without-allow-failure",
      path: ["hank", 0, "codons", 0, "rigSetup", 0],
      message:
        'Rig setup operation 1 of loop codon "a" does not set allowFailure: true; setup that succeeds on iteration 0 can fail on a later iteration and halt the loop.',
    });
  });
});
