import assert from "node:assert/strict";
import { hankOf, scriptedCodon } from "../hank-builders.ts";
import {
  attempts,
  completedOf,
  fileText,
  NO_WAIT_RETRY,
  runScenario,
  type Scenario,
} from "./scenario-kit.ts";

/**
 * A session that goes silent is stopped by the idle timeout: a retriable `timeout`, so the codon's
 * retry policy runs it again, and the second attempt completes.
 */
export const idleTimeout: Scenario = {
  name: "idle-timeout",
  title: "a stalled session is stopped by the idle timeout and retried",
  run: (context) => {
    const seconds = context.setup.idleTimeoutSeconds ?? 1;
    return runScenario(
      context,
      hankOf([
        scriptedCodon("hang", "Write done.txt.", {
          shimIdleTimeout: seconds,
          onFailure: "retry",
          retryConfig: { maxAttempts: 2, ...NO_WAIT_RETRY },
        }),
      ]),
      [
        { kind: "stall" },
        { kind: "work", steps: [{ kind: "write", path: "done.txt", content: "done\n" }], text: "Done." },
      ],
      (run) => {
        assert.deepEqual(attempts(run), [
          { codonId: "hang", attempt: 1, success: false, failure: { type: "timeout", retriable: true } },
          { codonId: "hang", attempt: 2, success: true },
        ]);
        const stalled = completedOf(run, "hang", 1);
        assert.equal(
          stalled.failureReason?.message,
          `Idle timeout: no events received for ${seconds * 1000}ms`,
        );
        assert.equal(stalled.failedDuring, "running", "the session had started before it stalled");
        assert.deepEqual(stalled.exitStatus, context.setup.stoppedExitStatus ?? { type: "none" });
        assert.equal(fileText(run, "done.txt"), "done\n");
        assert.equal(run.result.status, "completed", run.result.message);
        if (context.setup.modelServer)
          assert.ok(context.director.requestsOf(0).length > 0, "the stall was reached");
      },
    );
  },
};

/**
 * An output-token budget trips on the first response's usage and stops the session while it runs:
 * the model's next response would hang forever, so only the budget can end it.
 */
export const budgetStop: Scenario = {
  name: "budget-stop",
  title: "an exceeded budget stops the session mid-way",
  run: (context) =>
    runScenario(
      context,
      hankOf([
        scriptedCodon("spend", "Write spent.txt, then keep going.", {
          budget: { maxOutputTokens: 500, onExceeded: "fail" },
        }),
        scriptedCodon("after", "Never runs."),
      ]),
      [
        {
          kind: "over-budget",
          step: { kind: "write", path: "spent.txt", content: "spent\n" },
          outputTokens: 600,
        },
      ],
      (run) => {
        assert.deepEqual(attempts(run), [
          { codonId: "spend", attempt: 1, success: false, failure: { type: "unknown", retriable: false } },
        ]);
        const done = completedOf(run, "spend");
        assert.deepEqual({ ...done.budgetExceeded }, { currency: "outputTokens", limit: 500, used: 600 });
        assert.equal(done.endReasons?.codon, "aborted");
        assert.deepEqual(
          done.exitStatus,
          context.setup.stoppedExitStatus ?? { type: "none" },
          "the runtime stopped it",
        );
        assert.equal(done.failedDuring, "running");
        assert.equal(run.result.status, "failed");
        assert.deepEqual(
          run.data("codon.started").map((s) => s.codonId),
          ["spend"],
        );
      },
    ),
};
