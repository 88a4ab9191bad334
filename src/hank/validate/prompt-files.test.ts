import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, run } from "./test-kit.ts";

describe("prompt files", () => {
  let dir = "";
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hw-prompts-"));
    fs.mkdirSync(path.join(dir, "prompts"));
    fs.writeFileSync(path.join(dir, "prompts", "a.md"), "one\ntwo\nthree\n");
    fs.writeFileSync(path.join(dir, "prompts", "b.md"), "<!-- note -->\nfour\n");
    fs.writeFileSync(path.join(dir, "prompts", "empty.md"), "");
    fs.writeFileSync(path.join(dir, "prompts", "big.md"), "x".repeat(1024 * 1024 + 1));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("counts files and lines per codon id; promptText counts as one file", () => {
    const report = run(
      hankOf([
        codon("multi", { promptText: undefined, promptFile: ["prompts/a.md", "prompts/b.md"] }),
        loop("l", [loopCodon("inline", { promptText: "line 1\nline 2" })]),
      ]),
      { hankDir: dir },
    );
    assert.deepEqual(report.issues, []);
    assert.deepEqual(
      [...report.prompts],
      [
        ["multi", { files: 2, lines: 5 }],
        ["inline", { files: 1, lines: 2 }],
      ],
    );
  });

  it("reports missing, empty and oversized files, and refs that leave the hank directory", () => {
    const report = run(
      hankOf(
        [
          codon("a", { promptText: undefined, promptFile: ["prompts/missing.md", "prompts/empty.md"] }),
          codon("b", {
            promptText: undefined,
            promptFile: "prompts/big.md",
            appendSystemPromptFile: "../etc/passwd",
          }),
        ],
        { globalSystemPromptFile: "/abs/system.md" },
      ),
      { hankDir: dir },
    );
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "ref-absolute",
        path: ["globalSystemPromptFile"],
        message:
          'globalSystemPromptFile "/abs/system.md" is an absolute path; hank refs must be relative paths inside the hank directory',
      },
      {
        severity: "error",
        code: "ref-not-found",
        path: ["hank", 0, "promptFile", 0],
        message: 'promptFile "prompts/missing.md" does not exist',
      },
      {
        severity: "warning",
        code: "prompt-file-empty",
        path: ["hank", 0, "promptFile", 1],
        message: 'promptFile "prompts/empty.md" is empty',
      },
      {
        severity: "warning",
        code: "prompt-file-large",
        path: ["hank", 1, "promptFile"],
        message: 'promptFile "prompts/big.md" is larger than 1 MB (1048577 bytes)',
      },
      {
        severity: "error",
        code: "ref-escapes-hank-dir",
        path: ["hank", 1, "appendSystemPromptFile"],
        message:
          'appendSystemPromptFile "../etc/passwd" escapes the hank directory (at ".."); a ref may not climb above the hank directory at any step, even to come back in',
      },
    ]);
    assert.equal(report.prompts.has("a"), false);
    assert.deepEqual(report.prompts.get("b"), { files: 1, lines: 1 });
  });
});
