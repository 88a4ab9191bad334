import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { error, warning } from "../../hank/issues.ts";
import { issueLocation, renderIssues } from "./issues.ts";

describe("renderIssues", () => {
  it("groups errors before warnings, with the path, message and fix", () => {
    const issues = [
      warning(
        "loop-abort",
        ["hank", 0, "codons", 1],
        "loop codon defaults to 'onFailure: abort'.",
        "Set onFailure.",
      ),
      error(
        "missing-prompt",
        ["hank", 2],
        "Either promptFile or promptText must be provided.",
        "Add promptText.",
      ),
    ];
    assert.equal(
      renderIssues(issues, { color: false, width: 80 }),
      [
        "Errors (1):",
        "  ✗ hank[2]: Either promptFile or promptText must be provided.",
        "    Fix: Add promptText.",
        "",
        "Warnings (1):",
        "  ! hank[0].codons[1]: loop codon defaults to 'onFailure: abort'.",
        "    Fix: Set onFailure.",
      ].join("\n"),
    );
  });

  it("wraps long messages with a hanging indent and keeps their newlines", () => {
    const issue = error(
      "env",
      ["requirements", "env"],
      "Missing required environment variables: A, B\nDeclared in requirements.env.",
      "",
    );
    assert.equal(
      renderIssues([issue], { color: false, width: 40 }),
      [
        "Errors (1):",
        "  ✗ requirements.env: Missing required",
        "    environment variables: A, B",
        "    Declared in requirements.env.",
      ].join("\n"),
    );
  });

  it("is empty without issues", () => {
    assert.equal(renderIssues([], { color: false, width: 80 }), "");
  });
});

describe("issueLocation", () => {
  it("names the file when the issue lies outside the hank file", () => {
    const inPrompt = { ...error("x", ["hank", 0, "promptFile"], "m", "h"), file: "prompts/a.md" };
    assert.equal(issueLocation(inPrompt), "prompts/a.md (hank[0].promptFile)");
    assert.equal(issueLocation({ ...error("x", [], "m", "h"), file: "hank.json" }), "hank.json");
    assert.equal(issueLocation(error("x", [], "m", "h")), "(root)");
  });
});
