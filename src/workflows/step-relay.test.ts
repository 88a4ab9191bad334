import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf } from "../events/index.ts";
import { initialRunState, type RunState, sampleEvent } from "../journal/index.ts";
import { emptyCodonRecord } from "../journal/run-state.ts";
import type { LoopFiles } from "./loop-files.ts";
import { buildLoopHank } from "./loop-hank.ts";
import { checkLoopOptions } from "./loop-options.ts";
import { StepRelay } from "./step-relay.ts";

const options = checkLoopOptions({
  steps: [
    { name: "coder", model: "scripted" },
    { name: "reviewer", model: "scripted" },
  ],
  input: "the task",
});
const loop = buildLoopHank(options, false);

/** A relay over a recording LoopFiles: what it wrote, as `<step config id>: <text>`. */
function relay(): { relay: StepRelay; written: string[] } {
  const written: string[] = [];
  const files: LoopFiles = {
    hankDir: "/unused",
    hankPath: "/unused/hank.json",
    writeInput: (step, text) => written.push(`${step.configId}: ${text}`),
    held: () => undefined,
  };
  return { relay: new StepRelay({ loop, files, input: options.input }), written };
}

function starting(codonId: string): EventOf<"state.transition"> {
  const event = sampleEvent("state.transition");
  return {
    ...event,
    data: {
      transitionType: "CodonTransitioned",
      codonId,
      transition: { type: "CodonTransitioned", data: { status: "starting" } },
      resultingState: event.data.resultingState,
    },
  };
}

function completed(codonId: string, text: string): EventOf<"codon.completed"> {
  const event = sampleEvent("codon.completed");
  return {
    ...event,
    data: { ...event.data, codonId, result: { text, truncated: false, chars: text.length } },
  };
}

/** The run state of earlier runs: these steps completed with these texts. */
function stateWith(outputs: Record<string, string>): RunState {
  const state = initialRunState();
  const codons = Object.entries(outputs).map(([id, text]) => ({
    ...emptyCodonRecord(id),
    status: "completed" as const,
    attempts: 1,
    result: { text, truncated: false, chars: text.length },
  }));
  return { ...state, codons };
}

describe("StepRelay: each step's input, from the journal, as the step starts", () => {
  it("gives the first step the loop's input, then each step the output before it", () => {
    const { relay: r, written } = relay();
    const state = stateWith({});
    r.listener(starting("coder#0"), state);
    r.listener(completed("coder#0", "patch 1"), state);
    r.listener(starting("reviewer#0"), state);
    r.listener(completed("reviewer#0", "remarks 1"), state);
    r.listener(starting("coder#1"), state);
    assert.deepEqual(written, ["coder: the task", "reviewer: patch 1", "coder: remarks 1"]);
  });

  it("after a restart, takes the outputs of earlier runs from the run state", () => {
    const { relay: r, written } = relay();
    // The process died during reviewer#1: coder#1 completed, reviewer#1 starts again.
    const state = stateWith({ "coder#0": "patch 1", "reviewer#0": "remarks 1", "coder#1": "patch 2" });
    r.listener(starting("reviewer#1"), state);
    assert.deepEqual(written, ["reviewer: patch 2"]);
  });

  it("writes a re-run attempt's input again, unchanged", () => {
    const { relay: r, written } = relay();
    const state = stateWith({ "coder#0": "patch 1" });
    r.listener(starting("reviewer#0"), state);
    r.listener(starting("reviewer#0"), state);
    assert.deepEqual(written, ["reviewer: patch 1", "reviewer: patch 1"]);
  });
});
