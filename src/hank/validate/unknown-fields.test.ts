import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

describe("unknown fields", () => {
  it("names the codon typo with the reference message", () => {
    const report = run(hankOf([codon("a", { trackedFiles: ["x"] })]));
    assert.deepEqual(brief(only(report, "unknown-field")), {
      severity: "error",
      code: "unknown-field",
      path: ["hank", 0, "trackedFiles"],
      message: 'Unknown field "trackedFiles". Did you mean "checkpointedFiles"?',
    });
    assert.equal(only(report, "unknown-field").hint, 'Rename "trackedFiles" to "checkpointedFiles".');
  });

  it("points budget typos into the codon budget", () => {
    const issue = only(run(hankOf([codon("a", { maxCost: 2 })])), "unknown-field");
    assert.equal(issue.message, 'Unknown field "maxCost". Did you mean "budget.maxDollars"?');
    assert.equal(issue.hint, 'Move it into the codon\'s budget: "budget": { "maxDollars": ... }.');
  });

  it("suggests near misses that are not in the map", () => {
    const issue = only(run(hankOf([codon("a", { promtText: "x" })])), "unknown-field");
    assert.equal(issue.message, 'Unknown field "promtText". Did you mean "promptText"?');
  });

  it("lists the valid fields when nothing is close", () => {
    const issue = only(run(hankOf([codon("a", { zebra: 1 })])), "unknown-field");
    assert.deepEqual(issue.path, ["hank", 0, "zebra"]);
    assert.equal(
      issue.message,
      'Unrecognized field "zebra". Valid fields are: type, id, name, promptFile, promptText, appendSystemPromptFile, appendSystemPromptText, model, continuationMode, rigSetup, description, checkpointedFiles, env, outputFiles, sentinels, archiveOnSuccess, onFailure, retryConfig, exhaustWithPrompt, maxExtensions, autoCompact, shimIdleTimeout, budget.',
    );
  });

  it("checks loop children with the codon typo map and loops with the loop fields", () => {
    const report = run(hankOf([loop("l", [loopCodon("a", { rig: [] })], { model: "haiku" })]));
    const [onLoop, inLoop] = withCode(report, "unknown-field");
    assert.deepEqual(onLoop && brief(onLoop), {
      severity: "error",
      code: "unknown-field",
      path: ["hank", 0, "model"],
      message:
        'Unrecognized field "model". Valid fields are: type, id, name, description, terminateOn, codons, budget, archiveOnSuccess.',
    });
    assert.equal(
      onLoop?.hint,
      '"model" is a codon field; set it on each codon in the loop\'s "codons" array.',
    );
    assert.deepEqual(inLoop && brief(inLoop), {
      severity: "error",
      code: "unknown-field",
      path: ["hank", 0, "codons", 0, "rig"],
      message: 'Unknown field "rig". Did you mean "rigSetup"?',
    });
  });

  it("reports unknown keys of nested strict objects with their own fields", () => {
    const report = run(hankOf([codon("a", { budget: { maxDolars: 1 } })]));
    assert.deepEqual(brief(only(report, "unknown-field")), {
      severity: "error",
      code: "unknown-field",
      path: ["hank", 0, "budget", "maxDolars"],
      message: 'Unknown field "maxDolars". Did you mean "maxDollars"?',
    });
    const nested = only(
      run(hankOf([codon("a", { outputFiles: [{ copy: ["x"], from: "y" }] })])),
      "unknown-field",
    );
    assert.equal(nested.message, 'Unrecognized field "from". Valid fields are: copy, beforeCopy.');
  });
});

describe("unknown root fields", () => {
  it("gives the per-codon variant for codon fields", () => {
    const report = run(hankOf([codon("a")], { outputFiles: [] }));
    assert.deepEqual(brief(only(report, "unknown-root-field")), {
      severity: "error",
      code: "unknown-root-field",
      path: ["outputFiles"],
      message:
        'Unrecognized field(s) at hank root: outputFiles. "outputFiles" is a per-codon field — move it inside a codon in the "hank" array.',
    });
  });

  it("names the hank-wide alternative of a root codon field in the hint", () => {
    const issue = only(run(hankOf([codon("a")], { budget: { maxDollars: 1 } })), "unknown-root-field");
    assert.equal(
      issue.message,
      'Unrecognized field(s) at hank root: budget. "budget" is a per-codon field — move it inside a codon in the "hank" array.',
    );
    assert.equal(
      issue.hint,
      'Move "budget" into each codon that needs it; for a budget on the whole hank, use "overrides.budget".',
    );
  });

  it("points root names that belong elsewhere to their place", () => {
    const issue = only(run(hankOf([codon("a")], { version: "1" })), "unknown-root-field");
    assert.equal(issue.message, 'Unrecognized field(s) at hank root: version. Did you mean "meta.version"?');
    assert.equal(issue.hint, 'Move it into "meta": "meta": { "version": ... }.');
  });

  it("suggests near misses and lists the root fields otherwise", () => {
    const report = run({ hnak: [], hank: [codon("a")], other: 1 });
    const [near, far] = withCode(report, "unknown-root-field");
    assert.equal(near?.message, 'Unrecognized field(s) at hank root: hnak. Did you mean "hank"?');
    assert.equal(
      far?.message,
      "Unrecognized field(s) at hank root: other. Valid root fields are: $schema, meta, overrides, requirements, globalSystemPromptFile, globalSystemPromptText, hank.",
    );
  });
});
