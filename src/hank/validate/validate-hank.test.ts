import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, RICH_FIXTURE_DIR, run } from "./test-kit.ts";
import { validateHank } from "./validate-hank.ts";

const readFixture = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "hank.json"), "utf8"));
const MINIMAL_LOOP_DIR = path.join(RICH_FIXTURE_DIR, "..", "minimal-loop");

describe("validateHank: fixtures", () => {
  it("accepts the minimal loop fixture with the reference's two warnings", () => {
    const report = run(readFixture(MINIMAL_LOOP_DIR), { hankDir: MINIMAL_LOOP_DIR });
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.join(".")]),
      [
        ["loop-codon-abort", "hank.0.codons.0"],
        ["loop-codon-abort", "hank.0.codons.1"],
      ],
    );
    assert.deepEqual(
      [...report.prompts],
      [
        ["append-a", { files: 1, lines: 2 }],
        ["append-b", { files: 1, lines: 2 }],
      ],
    );
    assert.equal(report.hank?.meta?.name, "Minimal loop");
  });

  it("accepts the rich fixture without any issue", () => {
    const report = run(readFixture(RICH_FIXTURE_DIR), { env: { REVIEW_TOKEN: "x" } });
    assert.deepEqual(report.issues, []);
    assert.deepEqual([...report.models.keys()], ["sonnet", "haiku", "scripted"]);
  });
});

describe("validateHank: acceptance scenarios", () => {
  it("1. a minimal hank validates", () => {
    const report = run(
      hankOf([{ id: "a", name: "A", promptText: "Hi", model: "haiku", continuationMode: "fresh" }]),
    );
    assert.equal(report.ok, true);
    assert.deepEqual(report.issues, []);
  });

  it("2. a codon typo and a root-level codon field fail with their messages", () => {
    const report = run(hankOf([codon("a", { trackedFiles: ["x"] })], { outputFiles: [] }));
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.issues.map((i) => i.message),
      [
        'Unrecognized field(s) at hank root: outputFiles. "outputFiles" is a per-codon field — move it inside a codon in the "hank" array.',
        'Unknown field "trackedFiles". Did you mean "checkpointedFiles"?',
      ],
    );
  });

  it("3. missing prompt, missing continuationMode and retryConfig without retry each fail", () => {
    const { continuationMode: _c, ...noMode } = codon("b");
    const report = run(
      hankOf([codon("a", { promptText: undefined }), noMode, codon("c", { retryConfig: {} })]),
    );
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "missing-field",
        path: ["hank", 1, "continuationMode"],
        message: `Missing required field "continuationMode". continuationMode must be either 'fresh' or 'continue-previous'.`,
      },
      {
        severity: "error",
        code: "missing-prompt",
        path: ["hank", 0],
        message: "Either promptFile or promptText must be provided.",
      },
      {
        severity: "error",
        code: "retry-config-without-retry",
        path: ["hank", 2, "retryConfig"],
        message: "retryConfig can only be used when onFailure is 'retry'.",
      },
    ]);
  });

  it("4. a contextExceeded loop with a fresh codon is fatal", () => {
    const report = run(hankOf([loop("l", [loopCodon("a")], { terminateOn: { type: "contextExceeded" } })]));
    assert.equal(report.ok, false);
    assert.match(
      only(report, "context-loop-fresh-codon").message,
      /^Loop with contextExceeded termination cannot contain codons with continuationMode "fresh"/,
    );
  });

  it("5. continue-previous across a model change is fatal; on the first codon it only warns", () => {
    const report = run(
      hankOf([
        codon("a", { model: "sonnet", checkpointedFiles: ["x"] }),
        codon("b", { model: "haiku", continuationMode: "continue-previous" }),
      ]),
    );
    assert.equal(report.ok, false);
    const issue = only(report, "continue-model-mismatch");
    assert.deepEqual(issue.path, ["hank", 1, "continuationMode"]);
    assert.match(
      issue.message,
      /^Cannot use continuationMode "continue-previous" when model differs from previous codon: codon "b" uses haiku \(anthropic\//,
    );
    const first = run(hankOf([codon("a", { continuationMode: "continue-previous" })]));
    assert.equal(first.ok, true);
    assert.equal(first.issues[0]?.code, "continue-first-codon");
  });

  it("6. a top-level codon id reused in a loop is a duplicate", () => {
    const report = run(hankOf([codon("a"), loop("l", [loopCodon("a")])]));
    assert.equal(
      only(report, "duplicate-codon-id").message,
      'Duplicate codon ID "a" (first used at hank[0])',
    );
  });

  it("7. budget shares: without allocation, summing over 1, naming unknown ids", () => {
    const items = [codon("a"), codon("b")];
    const codes = (budget: unknown) =>
      run(hankOf(items, { overrides: { budget } })).issues.map((i) => i.code);
    assert.deepEqual(codes({ shares: { a: 0.5 } }), ["budget-shares-without-proportional"]);
    assert.deepEqual(codes({ maxDollars: 1, allocation: "proportional", shares: { a: 0.6, b: 0.6 } }), [
      "budget-shares-sum",
    ]);
    assert.deepEqual(codes({ maxDollars: 1, allocation: "proportional", shares: { nope: 0.5 } }), [
      "budget-shares-unknown-child",
    ]);
  });
});

describe("validateHank: contract", () => {
  it("never throws and reports odd inputs as issues", () => {
    for (const raw of [
      undefined,
      null,
      0,
      "hank",
      true,
      [],
      { hank: null },
      { hank: [[]] },
      { hank: [{ type: "loop" }] },
    ]) {
      const report = run(raw);
      assert.equal(report.ok, false, JSON.stringify(raw));
      assert.ok(report.issues.length > 0);
      assert.equal(report.hank, undefined);
    }
  });

  it("turns an unexpected exception into an internal-error issue", () => {
    const hostile = new Proxy({} as Record<string, string | undefined>, {
      ownKeys: () => {
        throw new Error("env exploded");
      },
    });
    const report = validateHank(hankOf([codon("a")]), {
      hankPath: "h",
      hankDir: RICH_FIXTURE_DIR,
      env: hostile,
      findTool: () => true,
    });
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "validator-internal-error",
        path: [],
        message: "Validation stopped on an internal error: env exploded",
      },
    ]);
    assert.equal(report.ok, false);
    assert.deepEqual(report.envPassthrough, []);
  });

  it("treats prototype names as ordinary unknown keys and ids", () => {
    const raw = JSON.parse(
      '{"constructor": 1, "hank": [{"id": "toString", "name": "T", "model": "haiku", "continuationMode": "fresh", "promptText": "x", "__proto__": {"polluted": true}}], "overrides": {"budget": {"maxDollars": 1, "allocation": "proportional", "shares": {"constructor": 0.5}}}}',
    );
    const report = run(raw);
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.join("."), i.message]),
      [
        [
          "unknown-root-field",
          "constructor",
          "Unrecognized field(s) at hank root: constructor. Valid root fields are: $schema, meta, overrides, requirements, globalSystemPromptFile, globalSystemPromptText, hank.",
        ],
        [
          "unknown-field",
          "hank.0.__proto__",
          'Unrecognized field "__proto__". Valid fields are: type, id, name, promptFile, promptText, appendSystemPromptFile, appendSystemPromptText, model, continuationMode, rigSetup, description, checkpointedFiles, env, outputFiles, sentinels, archiveOnSuccess, onFailure, retryConfig, exhaustWithPrompt, maxExtensions, autoCompact, shimIdleTimeout, budget.',
        ],
        [
          "budget-shares-unknown-child",
          "overrides.budget.shares.constructor",
          "budget.shares references unknown child IDs: constructor. Valid IDs: toString",
        ],
      ],
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("does not modify the input", () => {
    const raw = hankOf([codon("a", { model: "sonnet" })], { overrides: { model: "haiku" } });
    const before = JSON.stringify(raw);
    run(raw, { modelOverride: "scripted" });
    assert.equal(JSON.stringify(raw), before);
  });
});

describe("validateHank: every problem in one round", () => {
  it("reports a broken codon's missing prompt and sentinel files and unknown model with its schema error", () => {
    const broken = {
      id: "draft",
      name: "Draft",
      model: "no-such-model",
      continuationMode: "bogus",
      promptFile: "prompts/missing.md",
      appendSystemPromptFile: "prompts/also-missing.md",
      sentinels: [{ sentinelConfig: "sentinels/gone.json", settings: { failCodonIfNotLoaded: true } }],
    };
    const report = run(hankOf([broken, codon("review", { promptText: undefined, promptFile: "gone.md" })]));
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.join(".")]),
      [
        ["invalid-continuation-mode", "hank.0.continuationMode"],
        ["ref-not-found", "hank.1.promptFile"],
        ["ref-not-found", "hank.0.promptFile"],
        ["ref-not-found", "hank.0.appendSystemPromptFile"],
        ["ref-not-found", "hank.0.sentinels.0.sentinelConfig"],
        ["invalid-model", "hank.0.model"],
      ],
    );
  });
});
