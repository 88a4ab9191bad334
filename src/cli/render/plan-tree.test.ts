import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ResolvedModel } from "../../hank/models/index.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import { budgetText, renderPlanTree } from "./plan-tree.ts";

const haiku: ResolvedModel = {
  requested: "haiku",
  id: "claude-haiku-4-5",
  provider: "anthropic",
  harness: "claude",
  contextWindow: 200_000,
  maxOutputTokens: 64_000,
  pricing: null,
  matchType: "alias",
};

const hank: HankFile = {
  hank: [
    {
      id: "setup",
      name: "Set up",
      model: "haiku",
      continuationMode: "fresh",
      promptText: "one\ntwo\nthree",
      rigSetup: [{ type: "command", command: { run: "mkdir notes" } }],
      budget: { maxDollars: 0.5, maxTimeSeconds: 300 },
    },
    {
      type: "loop",
      id: "append-loop",
      name: "Append loop",
      terminateOn: { type: "iterationLimit", limit: 2 },
      codons: [
        {
          id: "append-a",
          name: "Codon A appends",
          model: "haiku",
          continuationMode: "fresh",
          promptFile: "./prompts/append-a.md",
          checkpointedFiles: ["log.txt"],
        },
        {
          id: "append-b",
          name: "Codon B appends",
          model: "scripted",
          continuationMode: "fresh",
          promptFile: "./prompts/append-b.md",
          onFailure: "retry",
        },
      ],
    },
    {
      type: "loop",
      id: "fill",
      name: "Fill the context",
      terminateOn: { type: "contextExceeded" },
      budget: { maxDollars: 3, allocation: "shared" },
      codons: [
        {
          id: "gen",
          name: "Generate",
          model: "scripted",
          continuationMode: "continue-previous",
          promptText: "go",
        },
      ],
    },
  ],
};

const facts = {
  prompts: new Map([
    ["append-a", { files: 1, lines: 2 }],
    ["append-b", { files: 1, lines: 1 }],
  ]),
  models: new Map([["haiku", haiku]]),
};

describe("renderPlanTree", () => {
  it("numbers items and loop bodies and lists each codon's facts", () => {
    const expected = [
      "├─ [1] setup (Set up)",
      "│    model: haiku (anthropic/claude-haiku-4-5) │ mode: fresh │ prompts: 1 (3 lines)",
      "│    rig: 1 op │ budget: $0.50 • 300 s",
      "│",
      "├─ [2] LOOP: append-loop (Append loop) × 2 iterations",
      "│    ├─ [2.1] append-a (Codon A appends)",
      "│    │    model: haiku (anthropic/claude-haiku-4-5) │ mode: fresh │ prompts: 1 (2 lines)",
      "│    │    checkpointedGlobs: 1",
      "│    └─ [2.2] append-b (Codon B appends)",
      "│         model: scripted │ mode: fresh │ prompts: 1 (1 line)",
      "│         onFailure: retry",
      "│",
      "└─ [3] LOOP: fill (Fill the context) until context exceeded",
      "     budget: $3.00 • shared",
      "     └─ [3.1] gen (Generate)",
      "          model: scripted │ mode: continue-previous │ prompts: 1 (1 line)",
    ].join("\n");
    assert.equal(renderPlanTree(hank, facts, { color: false, width: 100 }), expected);
  });

  it("wraps details to the width", () => {
    const lines = renderPlanTree(hank, facts, { color: false, width: 60 }).split("\n");
    assert.deepEqual(lines.slice(0, 4), [
      "├─ [1] setup (Set up)",
      "│    model: haiku (anthropic/claude-haiku-4-5) │ mode: fresh",
      "│    prompts: 1 (3 lines)",
      "│    rig: 1 op │ budget: $0.50 • 300 s",
    ]);
  });
});

describe("budgetText", () => {
  it("lists the caps, or nothing when there are none", () => {
    assert.equal(
      budgetText({ maxOutputTokens: 20000, maxContextTokens: 150000 }),
      "20,000 output tokens • 150,000 context tokens",
    );
    assert.equal(budgetText({ onExceeded: "fail" }), undefined);
    assert.equal(budgetText(undefined), undefined);
  });
});
