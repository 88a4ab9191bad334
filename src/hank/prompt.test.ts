import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { PROMPT_FILE_WARN_BYTES, readPromptFiles } from "./prompt.ts";

let hank: string;

function write(relative: string, content: string | Buffer): void {
  const file = path.join(hank, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

before(() => {
  hank = fs.mkdtempSync(path.join(os.tmpdir(), "hw-prompt-"));
  write(
    "prompts/first.md",
    "---\nname: First\ntags: [a]\n---\n\nStep one.\n<!-- author note -->\nStep two.\n\n",
  );
  write("prompts/second.md", "---\nname: Second\n---\nStep three.\n");
  write("prompts/plain.md", "\uFEFFPlain <%AGENT_ROOT%> text\n");
  write("prompts/empty.md", "");
  write("prompts/only-comment.md", "<!-- nothing else -->\n");
  write("prompts/bad-front.md", "---\nname: x\nname: y\n---\nbody\n");
  write("prompts/unknown-front.md", "---\nmodel: opus\n---\nbody\n");
  write("prompts/latin1.md", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
});

after(() => fs.rmSync(hank, { recursive: true, force: true }));

describe("readPromptFiles", () => {
  test("one file: frontmatter and comments stripped, metadata returned", () => {
    const read = readPromptFiles(hank, "prompts/first.md");
    assert.equal(read.ok, true);
    if (!read.ok) return;
    assert.equal(read.text, "Step one.\nStep two.");
    assert.equal(read.lines, 2);
    assert.equal(read.metadata?.name, "First");
    assert.deepEqual(read.metadata?.tags, ["a"]);
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.files, [
      {
        ref: "prompts/first.md",
        absolutePath: path.join(hank, "prompts", "first.md"),
        bytes: 73,
        lines: 2,
        metadata: read.metadata,
      },
    ]);
  });

  test("several files join with one blank line; metadata is the first file's", () => {
    const read = readPromptFiles(hank, ["prompts/first.md", "prompts/second.md", "prompts/plain.md"]);
    assert.equal(read.ok, true);
    if (!read.ok) return;
    assert.equal(read.text, "Step one.\nStep two.\n\nStep three.\n\nPlain <%AGENT_ROOT%> text");
    assert.equal(read.lines, 6);
    assert.equal(read.metadata?.name, "First");
    assert.equal(read.files.length, 3);
  });

  test("no metadata when the first file has no frontmatter", () => {
    const read = readPromptFiles(hank, ["prompts/plain.md", "prompts/second.md"]);
    assert.equal(read.ok && read.metadata, undefined);
  });

  test("empty prompt files are warnings and add no blank lines", () => {
    const read = readPromptFiles(hank, ["prompts/empty.md", "prompts/second.md", "prompts/only-comment.md"], {
      path: ["hank", 0, "promptFile"],
    });
    assert.equal(read.ok, true);
    if (!read.ok) return;
    assert.equal(read.text, "Step three.");
    assert.deepEqual(
      read.warnings.map((w) => [w.code, w.message, w.path]),
      [
        ["prompt-file-empty", 'promptFile "prompts/empty.md" is empty', ["hank", 0, "promptFile", 0]],
        ["prompt-file-empty", 'promptFile "prompts/only-comment.md" is empty', ["hank", 0, "promptFile", 2]],
      ],
    );
    assert.equal(read.warnings[0]?.file, path.join(hank, "prompts", "empty.md"));
  });

  test("a file over 1 MB is a warning", () => {
    write("prompts/big.md", "x".repeat(PROMPT_FILE_WARN_BYTES + 1));
    const read = readPromptFiles(hank, "prompts/big.md", { field: "appendSystemPromptFile" });
    assert.equal(read.ok, true);
    assert.deepEqual(
      read.warnings.map((w) => [w.severity, w.code, w.message, w.path]),
      [
        [
          "warning",
          "prompt-file-large",
          'appendSystemPromptFile "prompts/big.md" is larger than 1 MB (1048577 bytes)',
          ["appendSystemPromptFile"],
        ],
      ],
    );
  });

  test("every bad ref is collected, each with its rule code and hint", () => {
    const read = readPromptFiles(hank, ["/abs.md", "prompts/missing.md", "prompts", "../x.md"]);
    assert.equal(read.ok, false);
    if (read.ok) return;
    assert.deepEqual(
      read.problems.map((p) => [p.code, p.message, p.path]),
      [
        [
          "ref-absolute",
          'promptFile "/abs.md" is an absolute path; hank refs must be relative paths inside the hank directory',
          ["promptFile", 0],
        ],
        ["ref-not-found", 'promptFile "prompts/missing.md" does not exist', ["promptFile", 1]],
        ["ref-not-a-file", 'promptFile "prompts" is not a regular file', ["promptFile", 2]],
        [
          "ref-escapes-hank-dir",
          'promptFile "../x.md" escapes the hank directory (at ".."); a ref may not climb above the hank directory at any step, even to come back in',
          ["promptFile", 3],
        ],
      ],
    );
    assert.equal(read.problems[1]?.file, path.join(hank, "prompts", "missing.md"));
    assert.equal(read.problems[0]?.hint.length !== 0, true);
  });

  test("a FIFO is refused without being opened", (t) => {
    const fifo = path.join(hank, "prompts", "pipe.md");
    const made = spawnSync("mkfifo", [fifo]);
    if (made.error !== undefined || made.status !== 0) {
      t.skip("mkfifo is not available on this system");
      return;
    }
    const read = readPromptFiles(hank, "prompts/pipe.md");
    assert.equal(!read.ok && read.problems[0]?.message, 'promptFile "prompts/pipe.md" is not a regular file');
  });

  test("a bad frontmatter is an error issue, not a throw", () => {
    const read = readPromptFiles(hank, "prompts/bad-front.md");
    assert.equal(read.ok, false);
    if (read.ok) return;
    assert.deepEqual(
      read.problems.map((p) => [p.severity, p.code, p.message]),
      [
        [
          "error",
          "prompt-frontmatter-invalid",
          'promptFile "prompts/bad-front.md": the frontmatter is not valid YAML at line 3, column 1: Map keys must be unique',
        ],
      ],
    );
  });

  test("unknown frontmatter fields are a warning", () => {
    const read = readPromptFiles(hank, "prompts/unknown-front.md");
    assert.equal(read.ok && read.text, "body");
    assert.deepEqual(
      read.warnings.map((w) => w.message),
      [
        'promptFile "prompts/unknown-front.md" has unknown frontmatter field(s): model. Allowed fields: name, description, tags, version, author',
      ],
    );
  });

  test("invalid UTF-8 is read with replacement characters and a warning", () => {
    const read = readPromptFiles(hank, "prompts/latin1.md");
    assert.equal(read.ok && read.text, "caf\uFFFD");
    assert.deepEqual(
      read.warnings.map((w) => w.code),
      ["prompt-file-not-utf8"],
    );
  });

  test("an empty list names no file", () => {
    const read = readPromptFiles(hank, []);
    assert.deepEqual(!read.ok && read.problems.map((p) => [p.code, p.message]), [
      ["prompt-file-none", "promptFile names no file"],
    ]);
  });

  test("base resolves refs from a folder inside the hank", () => {
    const read = readPromptFiles(hank, "second.md", { base: "prompts" });
    assert.equal(read.ok && read.text, "Step three.");
  });
  test("a held file is read from memory, then processed as one read from disk", () => {
    const held = (ref: string) =>
      ref === "prompts/first.md" ? "---\nname: Held\n---\nFrom memory.\n<!-- note -->\n" : undefined;
    const read = readPromptFiles(hank, ["prompts/first.md", "prompts/second.md"], { held });
    assert.equal(read.ok, true);
    if (!read.ok) return;
    assert.equal(
      read.text,
      "From memory.\n\nStep three.",
      "the held text replaces the file; the other is read",
    );
    assert.equal(read.metadata?.name, "Held");
    assert.equal(read.files[0]?.absolutePath, path.join(hank, "prompts/first.md"));
    const missing = readPromptFiles(hank, "prompts/nowhere.md", { held: () => "Only in memory." });
    assert.equal(missing.ok && missing.text, "Only in memory.", "a held file need not exist on disk");
  });

  test("a held text reads exactly as the file holding it as UTF-8 would, byte count included", () => {
    const texts = [
      "\uFEFFWith a BOM.",
      "\uFEFF\uFEFFTwo BOMs.",
      "A lone \uD800 surrogate.",
      "Été \u{1F600}.",
    ];
    for (const [index, text] of texts.entries()) {
      const ref = `prompts/held-${index}.md`;
      write(ref, Buffer.from(text, "utf8"));
      const fromDisk = readPromptFiles(hank, ref);
      const fromMemory = readPromptFiles(hank, ref, { held: () => text });
      assert.deepEqual(fromMemory, fromDisk, JSON.stringify(text));
    }
  });
});
