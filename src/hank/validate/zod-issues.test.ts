import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, only, run } from "./test-kit.ts";

/** zod findings read as sentences with full paths; checked through validateHank. */
describe("zod issue translation", () => {
  it("says which field is missing, with the allowed values for enums", () => {
    const { continuationMode: _omitted, ...rest } = codon("a");
    const issue = only(run(hankOf([rest])), "missing-field");
    assert.deepEqual(brief(issue), {
      severity: "error",
      code: "missing-field",
      path: ["hank", 0, "continuationMode"],
      message: `Missing required field "continuationMode". continuationMode must be either 'fresh' or 'continue-previous'.`,
    });
    const { name: _name, ...noName } = codon("b");
    const named = only(run(hankOf([noName])), "missing-field");
    assert.equal(named.message, 'Missing required field "name".');
    assert.equal(named.hint, 'Add "name": Human-readable name shown in the UI and logs.');
  });

  it("explains a bad continuationMode with the reference wording", () => {
    const issue = only(
      run(hankOf([codon("a", { continuationMode: "continue" })])),
      "invalid-continuation-mode",
    );
    assert.equal(
      issue.message,
      `continuationMode must be either 'fresh' or 'continue-previous', not "continue".`,
    );
    assert.equal(
      issue.hint,
      `Use "fresh" to start a new session or "continue-previous" to resume the previous codon's session.`,
    );
  });

  it("lists allowed values and suggests the closest one", () => {
    const issue = only(run(hankOf([codon("a", { onFailure: "retyr" })])), "invalid-value");
    assert.deepEqual(brief(issue), {
      severity: "error",
      code: "invalid-value",
      path: ["hank", 0, "onFailure"],
      message: '"onFailure" must be one of "abort", "retry", "ignore", not "retyr".',
    });
    assert.equal(issue.hint, 'Use "abort", "retry", "ignore". Did you mean "retry"?');
  });

  it("names types and ranges", () => {
    assert.equal(
      only(run(hankOf([codon("a", { model: ["x"] })])), "invalid-type").message,
      '"model" must be a string, not an array.',
    );
    const small = only(run(hankOf([codon("a", { budget: { maxDollars: 0 } })])), "too-small");
    assert.deepEqual(brief(small), {
      severity: "error",
      code: "too-small",
      path: ["hank", 0, "budget", "maxDollars"],
      message: '"maxDollars" must be greater than 0, not 0.',
    });
    const big = only(run(hankOf([codon("a", { shimIdleTimeout: 5000 })])), "too-big");
    assert.equal(big.message, '"shimIdleTimeout" must be at most 1800, not 5000.');
    const int = only(
      run(hankOf([codon("a", { maxExtensions: 1.5, exhaustWithPrompt: "go" })])),
      "invalid-type",
    );
    assert.equal(int.message, '"maxExtensions" must be an integer, not 1.5.');
    assert.equal(
      only(run(hankOf([codon("a", { name: "" })])), "too-small").message,
      '"name" must not be empty.',
    );
  });

  it("resolves unions: a wrong type, and the branch that matched the shape", () => {
    const wrong = only(run(hankOf([codon("a", { promptText: undefined, promptFile: 7 })])), "invalid-type");
    assert.equal(wrong.message, '"promptFile" must be a string or an array, not 7.');
    const empty = only(run(hankOf([codon("a", { promptText: undefined, promptFile: [] })])), "too-small");
    assert.deepEqual(brief(empty), {
      severity: "error",
      code: "too-small",
      path: ["hank", 0, "promptFile"],
      message: '"promptFile" must contain at least 1 item.',
    });
  });

  it("names a bad or missing discriminator with its options", () => {
    const bad = run(hankOf([codon("a", { rigSetup: [{ type: "shell", command: { run: "ls" } }] })]));
    assert.deepEqual(brief(only(bad, "invalid-value")), {
      severity: "error",
      code: "invalid-value",
      path: ["hank", 0, "rigSetup", 0, "type"],
      message: '"type" must be one of "copy", "command", not "shell".',
    });
    const missing = run(hankOf([codon("a", { rigSetup: [{ command: { run: "ls" } }] })]));
    assert.equal(
      only(missing, "missing-field").message,
      'Missing required field "type" (one of "copy", "command").',
    );
  });

  it("describes array elements by their parent", () => {
    const issue = only(run(hankOf([codon("a", { checkpointedFiles: ["ok", 3] })])), "invalid-type");
    assert.deepEqual(issue.path, ["hank", 0, "checkpointedFiles", 1]);
    assert.equal(issue.message, '"checkpointedFiles[1]" must be a string, not 3.');
  });
});
