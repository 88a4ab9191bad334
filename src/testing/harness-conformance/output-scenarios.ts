import assert from "node:assert/strict";
import { hankOf, scriptedCodon, scriptedLoop } from "../hank-builders.ts";
import {
  attempts,
  completedOf,
  fileText,
  infoMessages,
  NO_WAIT_RETRY,
  runScenario,
  type Scenario,
} from "./scenario-kit.ts";

/**
 * A full context window ends a `contextExceeded` loop as a success, and fails a plain codon for good.
 * The loop's codon continues the session of the codon before the loop, and its first iteration
 * overflows; then a fresh codon after the loop overflows too.
 */
export const contextOverflow: Scenario = {
  name: "context-overflow",
  title: "context overflow ends a contextExceeded loop successfully and fails a plain codon",
  run: (context) =>
    runScenario(
      context,
      hankOf([
        scriptedCodon("seed", "Write the first page."),
        scriptedLoop("fill", { type: "contextExceeded" }, [
          scriptedCodon("grow", "Add a page.", { continuationMode: "continue-previous" }),
        ]),
        scriptedCodon("after", "Summarize the pages.", {
          onFailure: "retry",
          retryConfig: { maxAttempts: 3, ...NO_WAIT_RETRY },
        }),
      ]),
      [
        { kind: "work", steps: [{ kind: "write", path: "page.txt", content: "a page\n" }], text: "Written." },
        { kind: "overflow" },
        { kind: "overflow" },
      ],
      (run) => {
        assert.deepEqual(attempts(run), [
          { codonId: "seed", attempt: 1, success: true },
          { codonId: "grow#0", attempt: 1, success: true },
          { codonId: "after", attempt: 1, success: false, failure: { type: "api-error", retriable: false } },
        ]);
        const [seed, grow] = run.data("codon.started");
        assert.equal(grow?.previousSessionId, seed?.sessionId, "the loop's codon resumed the seed's session");
        const overflowed = completedOf(run, "grow#0").endReasons;
        assert.equal(overflowed?.stream, "error");
        assert.equal(overflowed?.codon, "completed");
        assert.deepEqual(
          run
            .data("loop.iteration.completed")
            .map((l) => [l.loopId, l.iteration, l.isFinal, l.terminationReason]),
          [["fill", 0, true, "context_exceeded"]],
        );
        assert.ok(infoMessages(run).includes("Codon grow#0 completed successfully due to context exceeded"));
        assert.equal(
          completedOf(run, "after").failureReason?.message,
          "Context window exceeded (overflow); only a contextExceeded loop ends on context exhaustion",
        );
        assert.equal(fileText(run, "page.txt"), "a page\n");
        assert.equal(run.result.status, "failed");
        assert.match(run.result.message, /^Codon after failed \(permanent failure\)/);
      },
    ),
};

/** A response cut at max output tokens inside a write: the write never runs, and the codon fails for good. */
export const maxTokens: Scenario = {
  name: "max-tokens",
  title: "a tool call truncated at max tokens is not executed",
  run: (context) =>
    runScenario(
      context,
      hankOf([
        scriptedCodon("cut", "Write the report.", {
          onFailure: "retry",
          retryConfig: { maxAttempts: 3, ...NO_WAIT_RETRY },
        }),
      ]),
      [{ kind: "max-tokens", path: "cut.txt", content: "this report is cut short and never written" }],
      (run) => {
        assert.equal(fileText(run, "cut.txt"), null);
        assert.deepEqual(attempts(run), [
          { codonId: "cut", attempt: 1, success: false, failure: { type: "api-error", retriable: false } },
        ]);
        const done = completedOf(run, "cut");
        assert.equal(done.endReasons?.stream, "max-tokens");
        assert.equal(done.endReasons?.codon, "max-tokens");
        assert.match(done.failureReason?.message ?? "", /not executed/);
        // A harness that answers the cut call reports it as an error result; none reports it as run.
        const results = run.data("tool.result");
        assert.deepEqual(
          results.map((r) => r.isError),
          results.map(() => true),
        );
        assert.equal(run.result.status, "failed");
        assert.match(run.result.message, /^Codon cut failed \(permanent failure\)/);
      },
    ),
};
