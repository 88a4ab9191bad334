import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { error, warning } from "../../hank/issues.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import type { ValidationReport } from "../../hank/validate/index.ts";
import { renderLoadFailure, renderValidationReport } from "./validation-report.ts";

const runtime = { version: "0.1.0", platform: "linux", arch: "x64", nodeVersion: "v20.19.0" };
const plain = { color: false, width: 80 };
const hank: HankFile = {
  meta: { name: "Tiny", version: "1.0.0" },
  hank: [{ id: "only", name: "Only codon", model: "scripted", continuationMode: "fresh", promptText: "hi" }],
};
const header = [
  "╭───────────────────────────╮",
  "│ hankweave v0.1.0          │",
  "│ linux x64 • node v20.19.0 │",
  "╰───────────────────────────╯",
];

function report(overrides: Partial<ValidationReport>): ValidationReport {
  return {
    ok: true,
    issues: [],
    hank,
    models: new Map(),
    prompts: new Map([["only", { files: 1, lines: 1 }]]),
    envPassthrough: [],
    ...overrides,
  };
}

describe("renderValidationReport", () => {
  it("shows a valid hank, its plan, the GOOD TO RUN box, the environment and the warnings", () => {
    const loopWarning = warning("w", ["hank", 0], "Something to consider.", "Consider it.");
    const view = {
      runtime,
      displayPath: "hank.json",
      runCommand: "hankweave hank.json",
      report: report({ issues: [loopWarning], envPassthrough: [{ name: "FOO", shown: "bar" }] }),
      budgetTable: [],
    };
    const expected = [
      ...header,
      "",
      "> Validating hank.json",
      "✓ The hank is valid (1 warning).",
      "",
      "╭─────────────╮",
      "│ Tiny v1.0.0 │",
      "│ 1 codon     │",
      "╰─────────────╯",
      "",
      "└─ [1] only (Only codon)",
      "     model: scripted │ mode: fresh │ prompts: 1 (1 line)",
      "",
      "╭─ GOOD TO RUN! ─────────────────────────────────────────────────╮",
      "│ 1 codon • 1 prompt • 0 system prompts • 0 rigs • 0 checkpoints │",
      "╰────────────────────────────────────────────────────────────────╯",
      "Run it: hankweave hank.json",
      "",
      "Environment for the agents:",
      "  From the system (HANKWEAVE_ prefixed):",
      "  - FOO: bar",
      "",
      "Warnings (1):",
      "  ! hank[0]: Something to consider.",
      "    Fix: Consider it.",
      "",
    ].join("\n");
    assert.equal(renderValidationReport(view, plain), expected);
  });

  it("shows every issue of an invalid hank and no GOOD TO RUN box", () => {
    const issues = [error("e", ["hank", 0, "model"], "Invalid model 'nope'.", "Use scripted.")];
    const view = {
      runtime,
      displayPath: "h.json",
      runCommand: "",
      report: report({ ok: false, issues }),
      budgetTable: [],
    };
    const text = renderValidationReport(view, plain);
    assert.ok(text.includes("> Validating h.json\n✗ The hank is not valid: 1 error.\n"));
    assert.ok(
      text.includes("Errors (1):\n  ✗ hank[0].model: Invalid model 'nope'.\n    Fix: Use scripted.\n"),
    );
    assert.equal(text.includes("GOOD TO RUN"), false);
  });
});

describe("renderLoadFailure", () => {
  it("shows the path, the issue and its hint", () => {
    const issue = {
      ...error("hank-not-found", [], "Hank file not found: /w/x.json", "Pass a hank."),
      file: "x.json",
    };
    assert.equal(
      renderLoadFailure(runtime, "x.json", issue, plain),
      [
        ...header,
        "",
        "> Validating x.json",
        "✗ The hank could not be loaded.",
        "",
        "Errors (1):",
        "  ✗ x.json: Hank file not found: /w/x.json",
        "    Fix: Pass a hank.",
        "",
      ].join("\n"),
    );
  });
});
