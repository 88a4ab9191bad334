import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { HarnessKind } from "../models/index.ts";
import { brief, codon, hankOf, loop, loopCodon, run, withCode } from "./test-kit.ts";
import type { PromptLineProblem } from "./validation-types.ts";

/** A stand-in for the scripted agent's parser: every line starting with `@bad` is refused. */
function badLines(kind: HarnessKind, prompt: string): PromptLineProblem[] {
  if (kind !== "scripted") return [];
  return prompt
    .split("\n")
    .flatMap((line, index) =>
      line.startsWith("@bad") ? [{ line: index + 1, message: `refused ${line}` }] : [],
    );
}

describe("prompts the codon's agent would refuse", () => {
  it("reports each bad line of a scripted codon's promptText, loop children and extension prompts included", () => {
    const report = run(
      hankOf([
        codon("a", { model: "scripted", promptText: "ok\n@bad one\n<!-- gone -->\n@bad two" }),
        loop("l", [loopCodon("b", { model: "scripted", promptText: "fine", exhaustWithPrompt: "@bad ext" })]),
      ]),
      { promptProblems: badLines },
    );
    assert.equal(report.ok, false);
    assert.deepEqual(withCode(report, "agent-prompt-invalid").map(brief), [
      {
        severity: "error",
        code: "agent-prompt-invalid",
        path: ["hank", 0, "promptText"],
        message:
          "Model 'scripted' runs on the scripted agent, which would refuse line 2 of this prompt: refused @bad one",
      },
      {
        severity: "error",
        code: "agent-prompt-invalid",
        path: ["hank", 0, "promptText"],
        message:
          "Model 'scripted' runs on the scripted agent, which would refuse line 3 of this prompt: refused @bad two",
      },
      {
        severity: "error",
        code: "agent-prompt-invalid",
        path: ["hank", 1, "codons", 0, "exhaustWithPrompt"],
        message:
          "Model 'scripted' runs on the scripted agent, which would refuse line 1 of this prompt: refused @bad ext",
      },
    ]);
  });

  it("checks the prompt as the model resolves: -m scripted makes any codon's prompt a script", () => {
    const hank = hankOf([codon("a", { promptText: "@bad line" })]);
    assert.equal(withCode(run(hank, { promptProblems: badLines }), "agent-prompt-invalid").length, 0);
    const overridden = run(hank, { promptProblems: badLines, modelOverride: "scripted" });
    assert.equal(withCode(overridden, "agent-prompt-invalid").length, 1);
  });

  it("reads prompt files as the run composes them and names the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "hankweave-agent-prompts-"));
    try {
      writeFileSync(join(dir, "p.md"), "---\ndescription: x\n---\nfirst\n@bad here\n");
      writeFileSync(join(dir, "hank.json"), "{}");
      const report = run(
        hankOf([codon("a", { model: "scripted", promptFile: "p.md", promptText: undefined })]),
        {
          hankDir: dir,
          hankPath: join(dir, "hank.json"),
          promptProblems: badLines,
        },
      );
      const [issue] = withCode(report, "agent-prompt-invalid");
      assert.deepEqual(issue?.path, ["hank", 0, "promptFile"]);
      assert.equal(issue?.file, join(dir, "p.md"));
      assert.match(issue?.message ?? "", /line 2 of this prompt: refused @bad here/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks nothing without a checker", () => {
    const report = run(hankOf([codon("a", { model: "scripted", promptText: "@bad" })]));
    assert.equal(withCode(report, "agent-prompt-invalid").length, 0);
  });
});
