import assert from "node:assert/strict";
import { hankOf, scriptedCodon } from "../hank-builders.ts";
import {
  type AttemptSummary,
  attempts,
  completedOf,
  infoMessages,
  NO_WAIT_RETRY,
  runScenario,
  type Scenario,
} from "./scenario-kit.ts";
import { CONFORMANCE_FAULTS, FAULT_CLASSES } from "./session-plan.ts";

/**
 * Every provider fault, one per attempt of a codon with `onFailure: "retry"` and room for one more
 * attempt than there are faults: each retriable fault is retried, and the permanent one (auth, last)
 * ends the run at once, leaving the spare attempt unused.
 */
export const faults: Scenario = {
  name: "faults",
  title: "each provider fault is classified (reference 1.15) and retried or not per policy",
  run: (context) =>
    runScenario(
      context,
      hankOf([
        scriptedCodon("flaky", "Do the work.", {
          onFailure: "retry",
          retryConfig: { maxAttempts: CONFORMANCE_FAULTS.length + 1, ...NO_WAIT_RETRY },
        }),
        scriptedCodon("never", "Never runs."),
      ]),
      CONFORMANCE_FAULTS.map((fault) => ({ kind: "fault", fault })),
      (run) => {
        const expected: AttemptSummary[] = CONFORMANCE_FAULTS.map((fault, i) => ({
          codonId: "flaky",
          attempt: i + 1,
          success: false,
          failure: { type: FAULT_CLASSES[fault].type, retriable: FAULT_CLASSES[fault].retriable },
        }));
        assert.deepEqual(attempts(run), expected);
        // The rule that matched shows in the message's prefix; a mismatch shows the whole message.
        const rules = CONFORMANCE_FAULTS.map((fault, i) => {
          const message = completedOf(run, "flaky", i + 1).failureReason?.message ?? "";
          const { messagePrefix } = FAULT_CLASSES[fault];
          return message.startsWith(messagePrefix) ? messagePrefix : message;
        });
        assert.deepEqual(
          rules,
          CONFORMANCE_FAULTS.map((fault) => FAULT_CLASSES[fault].messagePrefix),
        );
        const retries = infoMessages(run).filter((m) => m.startsWith("Retrying codon flaky"));
        assert.deepEqual(
          retries.map((m) => m.slice(0, m.indexOf(" in "))),
          [2, 3, 4, 5].map((n) => `Retrying codon flaky (attempt ${n} of 6)`),
        );
        assert.equal(run.result.status, "failed");
        assert.match(run.result.message, /^Codon flaky failed \(permanent failure\): /);
        assert.deepEqual(
          run.data("codon.started").map((s) => s.codonId),
          ["flaky", "flaky", "flaky", "flaky", "flaky"],
        );
      },
    ),
};
