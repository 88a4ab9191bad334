import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, run, withCode } from "./test-kit.ts";

describe("fields the reference runtime ignores", () => {
  it("warns, without failing validation, on workingDirectory beside a rig command and says where it belongs", () => {
    const rigSetup = [{ type: "command", command: { run: "make" }, workingDirectory: "lastCopied" }];
    const report = run(hankOf([codon("a", { rigSetup })]));
    assert.equal(report.ok, true);
    assert.deepEqual(withCode(report, "unknown-field"), []);
    const [issue] = withCode(report, "ignored-field");
    assert.deepEqual(issue && brief(issue), {
      severity: "warning",
      code: "ignored-field",
      path: ["hank", 0, "rigSetup", 0, "workingDirectory"],
      message: 'Unknown field "workingDirectory" is ignored, as the reference runtime does.',
    });
    assert.equal(
      issue?.hint,
      'Move it into "command": "command": { "workingDirectory": ... }, or remove it.',
    );
    assert.equal(
      report.hank?.hank[0] && "rigSetup" in report.hank.hank[0] && report.hank.hank[0].rigSetup?.length,
      1,
    );
  });

  it("warns in every lenient object: copy ops, beforeCopy, retryConfig, terminateOn, requirements", () => {
    const report = run(
      hankOf(
        [
          codon("a", {
            rigSetup: [{ type: "copy", copy: { from: "prompts", to: "p", mode: "x" } }],
            outputFiles: [
              { copy: ["out/**"], beforeCopy: [{ type: "command", command: { run: "ls", cwd: "." } }] },
            ],
            onFailure: "retry",
            retryConfig: { maxAttempts: 2, maxAtempts: 3 },
          }),
          loop("l", [loopCodon("b")], { terminateOn: { type: "iterationLimit", limit: 2, max: 3 } }),
        ],
        { requirements: { env: [], binaries: ["git"] } },
      ),
    );
    assert.equal(report.ok, true, JSON.stringify(report.issues.filter((i) => i.severity === "error")));
    assert.deepEqual(
      withCode(report, "ignored-field").map((i) => [i.path.join("."), i.hint]),
      [
        ["requirements.binaries", "Remove it; the fields here are: env, tools."],
        ["hank.0.rigSetup.0.copy.mode", "Remove it; the fields here are: from, to."],
        [
          "hank.0.outputFiles.0.beforeCopy.0.command.cwd",
          "Remove it; the fields here are: run, workingDirectory.",
        ],
        [
          "hank.0.retryConfig.maxAtempts",
          "Remove it; the fields here are: maxAttempts, delayMs, maxDelayMs.",
        ],
        ["hank.1.terminateOn.max", "Remove it; the fields here are: type, limit."],
      ],
    );
  });

  it("suggests the field a typo meant when that field is not given", () => {
    const report = run(hankOf([codon("a", { onFailure: "retry", retryConfig: { delayMS: 10 } })]));
    assert.equal(
      withCode(report, "ignored-field")[0]?.hint,
      'Did you mean "delayMs"? Rename it, or remove it.',
    );
  });

  it("leaves strict objects to the schema: an unknown codon or budget field stays an error", () => {
    const report = run(hankOf([codon("a", { budget: { maxDolars: 1 }, extra: true })]));
    assert.equal(report.ok, false);
    assert.deepEqual(withCode(report, "ignored-field"), []);
    assert.equal(withCode(report, "unknown-field").length, 2);
  });
});
