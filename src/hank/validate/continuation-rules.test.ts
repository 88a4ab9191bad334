import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

const cp = { continuationMode: "continue-previous" };
const kept = { checkpointedFiles: ["out.md"] };
const CANNOT = 'Cannot use continuationMode "continue-previous"';

describe("continuation rules", () => {
  it("warns when the first codon continues nothing", () => {
    const report = run(hankOf([codon("a", cp)]));
    assert.equal(report.ok, true);
    assert.deepEqual(brief(only(report, "continue-first-codon")), {
      severity: "warning",
      code: "continue-first-codon",
      path: ["hank", 0, "continuationMode"],
      message: `First codon has continuationMode "continue-previous" but there's no previous codon`,
    });
  });

  it("rejects a model change at top level, comparing resolved models", () => {
    const report = run(
      hankOf([codon("a", { ...kept, model: "scripted/one" }), codon("b", { ...cp, model: "scripted/two" })]),
    );
    assert.deepEqual(brief(only(report, "continue-model-mismatch")), {
      severity: "error",
      code: "continue-model-mismatch",
      path: ["hank", 1, "continuationMode"],
      message: `${CANNOT} when model differs from previous codon: codon "b" uses scripted/two (scripted/two) but codon "a" uses scripted/one (scripted/one).`,
    });
    const same = run(
      hankOf([codon("a", { ...kept, model: "haiku" }), codon("b", { ...cp, model: "HAIKU" })]),
    );
    assert.deepEqual(same.issues, []);
  });

  it("rejects a model change inside a loop and after a loop", () => {
    const body = [
      loopCodon("x", { ...kept, model: "scripted/one" }),
      loopCodon("y", { ...cp, ...kept, model: "scripted/two" }),
    ];
    const report = run(
      hankOf([
        loop("l", body, { terminateOn: { type: "iterationLimit", limit: 1 } }),
        codon("after", { ...cp, model: "scripted/one" }),
      ]),
    );
    assert.deepEqual(
      withCode(report, "continue-model-mismatch").map((i) => [i.path.join("."), i.message]),
      [
        [
          "hank.0.codons.1.continuationMode",
          `${CANNOT} when model differs from previous codon: codon "y" uses scripted/two (scripted/two) but codon "x" uses scripted/one (scripted/one).`,
        ],
        [
          "hank.1.continuationMode",
          `${CANNOT} when model differs from previous codon: codon "after" uses scripted/one (scripted/one) but codon "y" uses scripted/two (scripted/two) (the last codon of loop "l").`,
        ],
      ],
    );
  });

  it("checks a loop's first codon against its last codon on later iterations", () => {
    const body = [
      loopCodon("x", { ...cp, ...kept, model: "scripted/one" }),
      loopCodon("y", { ...kept, model: "scripted/two" }),
    ];
    const report = run(hankOf([codon("before", { ...kept, model: "scripted/one" }), loop("l", body)]));
    assert.deepEqual(brief(only(report, "continue-model-mismatch")), {
      severity: "error",
      code: "continue-model-mismatch",
      path: ["hank", 1, "codons", 0, "continuationMode"],
      message: `${CANNOT} when model differs from previous codon: codon "x" uses scripted/one (scripted/one) but codon "y" uses scripted/two (scripted/two) (on iterations after the first, it continues the loop's last codon).`,
    });
  });

  it("rejects continuing after a contextExceeded loop", () => {
    const body = [loopCodon("x", { ...cp, ...kept })];
    const report = run(
      hankOf([
        codon("a", kept),
        loop("l", body, { terminateOn: { type: "contextExceeded" } }),
        codon("b", cp),
      ]),
    );
    assert.deepEqual(brief(only(report, "continue-after-context-loop")), {
      severity: "error",
      code: "continue-after-context-loop",
      path: ["hank", 2, "continuationMode"],
      message: `${CANNOT} after loop "l", which terminates on contextExceeded: its context is exhausted.`,
    });
  });

  it("rejects continuing after exhaustWithPrompt, directly or as a loop's last codon", () => {
    const direct = run(hankOf([codon("a", { ...kept, exhaustWithPrompt: "more" }), codon("b", cp)]));
    assert.deepEqual(brief(only(direct, "continue-after-exhaust")), {
      severity: "error",
      code: "continue-after-exhaust",
      path: ["hank", 1, "continuationMode"],
      message: `${CANNOT} after codon "a", which uses exhaustWithPrompt: its context is exhausted.`,
    });
    const body = [loopCodon("x", { ...kept, exhaustWithPrompt: "more" })];
    const afterLoop = run(hankOf([loop("l", body), codon("b", cp)]));
    assert.equal(
      only(afterLoop, "continue-after-exhaust").message,
      `${CANNOT} after loop "l", whose last codon "x" uses exhaustWithPrompt: its context is exhausted.`,
    );
  });

  it("warns when the previous codon checkpoints no files, including a loop's last codon", () => {
    const direct = run(hankOf([codon("a"), codon("b", cp)]));
    assert.deepEqual(brief(only(direct, "continue-without-checkpoints")), {
      severity: "warning",
      code: "continue-without-checkpoints",
      path: ["hank", 1, "continuationMode"],
      message:
        'Codon "b" continues from codon "a" which checkpoints no files; its work may not survive the handoff.',
    });
    const afterLoop = run(hankOf([loop("l", [loopCodon("x")]), codon("b", cp)]));
    assert.equal(
      only(afterLoop, "continue-without-checkpoints").message,
      'Codon "b" continues from codon "x", the last codon of loop "l", which checkpoints no files; its work may not survive the handoff.',
    );
  });

  it("warns about onFailure ignore before a continuing codon at top level only", () => {
    const top = run(hankOf([codon("a", { ...kept, onFailure: "ignore" }), codon("b", cp)]));
    assert.deepEqual(brief(only(top, "continue-after-ignore")), {
      severity: "warning",
      code: "continue-after-ignore",
      path: ["hank", 1, "continuationMode"],
      message:
        'Codon "b" continues the session of codon "a", which has onFailure "ignore"; if "a" fails, there is no completed session to continue.',
    });
    const inLoop = run(hankOf([loop("l", [loopCodon("x", kept), loopCodon("y", { ...cp, ...kept })])]));
    assert.equal(withCode(inLoop, "continue-after-ignore").length, 0);
  });

  it("checks nothing against a previous item that failed its schema", () => {
    const report = run(hankOf([codon("a", { model: 3 }), codon("b", { ...cp, model: "scripted/two" })]));
    assert.deepEqual(
      report.issues.map((i) => i.code),
      ["invalid-type"],
    );
  });
});
