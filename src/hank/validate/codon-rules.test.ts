import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, only, run, withCode } from "./test-kit.ts";

describe("codon rules", () => {
  it("requires a prompt", () => {
    assert.deepEqual(brief(only(run(hankOf([codon("a", { promptText: undefined })])), "missing-prompt")), {
      severity: "error",
      code: "missing-prompt",
      path: ["hank", 0],
      message: "Either promptFile or promptText must be provided.",
    });
  });

  it("rejects both prompt forms, both system prompt forms and both global forms", () => {
    const report = run(
      hankOf(
        [
          codon("a", {
            promptFile: "prompts/draft.md",
            appendSystemPromptFile: "prompts/system.md",
            appendSystemPromptText: "x",
          }),
        ],
        {
          globalSystemPromptFile: "prompts/system.md",
          globalSystemPromptText: "y",
        },
      ),
    );
    assert.deepEqual(brief(only(report, "conflicting-prompt")), {
      severity: "error",
      code: "conflicting-prompt",
      path: ["hank", 0, "promptText"],
      message: "Cannot specify both promptFile and promptText.",
    });
    assert.deepEqual(brief(only(report, "conflicting-system-prompt")), {
      severity: "error",
      code: "conflicting-system-prompt",
      path: ["hank", 0, "appendSystemPromptText"],
      message: "Cannot specify both appendSystemPromptFile and appendSystemPromptText.",
    });
    assert.deepEqual(brief(only(report, "conflicting-global-system-prompt")), {
      severity: "error",
      code: "conflicting-global-system-prompt",
      path: ["globalSystemPromptText"],
      message: "Cannot specify both globalSystemPromptFile and globalSystemPromptText",
    });
  });

  it("allows retryConfig only with onFailure retry", () => {
    const report = run(hankOf([codon("a", { retryConfig: { maxAttempts: 2 } })]));
    assert.deepEqual(brief(only(report, "retry-config-without-retry")), {
      severity: "error",
      code: "retry-config-without-retry",
      path: ["hank", 0, "retryConfig"],
      message: "retryConfig can only be used when onFailure is 'retry'.",
    });
    assert.equal(run(hankOf([codon("a", { onFailure: "retry", retryConfig: {} })])).ok, true);
  });

  it("checks exhaustWithPrompt and maxExtensions together", () => {
    const lone = only(run(hankOf([codon("a", { maxExtensions: 5 })])), "max-extensions-without-exhaust");
    assert.deepEqual(brief(lone), {
      severity: "warning",
      code: "max-extensions-without-exhaust",
      path: ["hank", 0, "maxExtensions"],
      message: "maxExtensions has no effect without exhaustWithPrompt.",
    });
    const blank = only(run(hankOf([codon("a", { exhaustWithPrompt: " " })])), "empty-exhaust-prompt");
    assert.equal(blank.message, "exhaustWithPrompt is empty; an extension needs a prompt to send.");
    const compact = only(
      run(hankOf([codon("a", { exhaustWithPrompt: "more", autoCompact: true })])),
      "exhaust-with-auto-compact",
    );
    assert.equal(
      compact.message,
      "exhaustWithPrompt with autoCompact: the session is compacted instead of exhausted, so the codon runs until maxExtensions (100) forces completion.",
    );
  });

  it("rejects empty commands and warns about dangerous ones", () => {
    const report = run(
      hankOf([
        codon("a", {
          rigSetup: [
            { type: "command", command: { run: "   " } },
            { type: "command", command: { run: "rm -rf ~/" } },
          ],
          outputFiles: [{ copy: ["x"], beforeCopy: [{ type: "command", command: { run: "" } }] }],
        }),
      ]),
    );
    assert.deepEqual(withCode(report, "empty-command").map(brief), [
      {
        severity: "error",
        code: "empty-command",
        path: ["hank", 0, "rigSetup", 0, "command", "run"],
        message: "Empty command",
      },
      {
        severity: "error",
        code: "empty-command",
        path: ["hank", 0, "outputFiles", 0, "beforeCopy", 0, "command", "run"],
        message: "Empty command",
      },
    ]);
    assert.deepEqual(brief(only(report, "dangerous-command")), {
      severity: "warning",
      code: "dangerous-command",
      path: ["hank", 0, "rigSetup", 1, "command", "run"],
      message: 'Command "rm -rf ~/" looks dangerous: it deletes the home directory.',
    });
  });

  it("warns about an empty promptText", () => {
    assert.equal(
      only(run(hankOf([codon("a", { promptText: "" })])), "prompt-text-empty").message,
      "promptText is empty.",
    );
  });
});
