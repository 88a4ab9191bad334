import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { checkRef, refEscapePoint, refSpellingProblem } from "./ref-check.ts";

const RELATIVE = "hank refs must be relative paths inside the hank directory";

let root: string;
let hank: string;

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hw-refcheck-"));
  hank = path.join(root, "hank");
  fs.mkdirSync(path.join(hank, "prompts", "deep"), { recursive: true });
  fs.writeFileSync(path.join(hank, "prompts", "main.md"), "hello\n");
  fs.writeFileSync(path.join(hank, "prompts", "deep", "x.md"), "x");
  fs.writeFileSync(path.join(root, "outside.md"), "outside");
  fs.mkdirSync(path.join(hank, "real"));
  fs.writeFileSync(path.join(hank, "real", "inside.md"), "inside");
  fs.symlinkSync(path.join(hank, "real"), path.join(hank, "linked"));
  fs.symlinkSync(path.join(hank, "prompts", "main.md"), path.join(hank, "prompts", "alias.md"));
});

after(() => fs.rmSync(root, { recursive: true, force: true }));

function failure(ref: string, expect: "file" | "directory" | "any" = "file") {
  const result = checkRef(hank, ref, expect);
  assert.equal(result.ok, false, `expected ${ref} to be rejected`);
  if (result.ok) throw new Error("unreachable");
  return result;
}

describe("checkRef spelling rules", () => {
  const cases: Array<[string, string, string]> = [
    ["", "empty", '"" is an empty path; name a file relative to the hank directory'],
    ["/etc/passwd", "absolute", `"/etc/passwd" is an absolute path; ${RELATIVE}`],
    ["C:\\prompts\\a.md", "windows-drive", `"C:\\prompts\\a.md" is a Windows drive path; ${RELATIVE}`],
    ["C:/prompts/a.md", "windows-drive", `"C:/prompts/a.md" is a Windows drive path; ${RELATIVE}`],
    [
      "prompts\\main.md",
      "backslash",
      '"prompts\\main.md" contains a backslash; hank refs use "/" as the only path separator',
    ],
    [
      "\\\\server\\share\\a.md",
      "backslash",
      '"\\\\server\\share\\a.md" contains a backslash; hank refs use "/" as the only path separator',
    ],
    ["prompts/a\0.md", "nul-byte", '"prompts/a\\u0000.md" contains a NUL byte, which no file name can hold'],
  ];
  for (const [ref, rule, message] of cases) {
    test(`${rule}: ${JSON.stringify(ref)}`, () => {
      const result = failure(ref);
      assert.equal(result.rule, rule);
      assert.equal(result.message, message);
    });
  }

  test("the pure spelling check accepts ordinary relative paths", () => {
    assert.equal(refSpellingProblem("./prompts/main.md"), null);
    assert.equal(refSpellingProblem("prompts/with space.md"), null);
  });
});

describe("checkRef escape rule", () => {
  const phrase = "a ref may not climb above the hank directory at any step, even to come back in";
  test("climbing out after a step in", () => {
    const result = failure("a/../../b");
    assert.equal(result.rule, "escapes-hank-dir");
    assert.equal(result.message, `"a/../../b" escapes the hank directory (at "a/../.."); ${phrase}`);
  });

  test("leaving and coming back into the hank is still an escape", () => {
    const result = failure("../hank/prompts/main.md");
    assert.equal(result.rule, "escapes-hank-dir");
    assert.equal(result.message, `"../hank/prompts/main.md" escapes the hank directory (at ".."); ${phrase}`);
  });

  test("escape is reported before existence", () => {
    assert.equal(failure("missing/../../outside.md").rule, "escapes-hank-dir");
  });

  test("refEscapePoint is null for paths that stay inside", () => {
    assert.equal(refEscapePoint(["a", "..", "b"]), null);
    assert.equal(refEscapePoint([".", "", "a"]), null);
    assert.equal(refEscapePoint(["a", "..", ".."]), "a/../..");
  });
});

describe("checkRef symlinks", () => {
  test("a symlinked directory component is rejected", () => {
    const result = failure("linked/inside.md");
    assert.equal(result.rule, "symlink");
    assert.equal(
      result.message,
      '"linked/inside.md" passes through a symlink at "linked"; symlinks are not allowed in hank refs',
    );
    assert.equal(result.entry, "linked");
  });

  test("a symlinked final file is rejected", () => {
    const result = failure("prompts/alias.md");
    assert.equal(result.rule, "symlink");
    assert.equal(result.entry, "prompts/alias.md");
  });

  test("a symlink followed by .. is still a symlink (the OS would follow it)", () => {
    assert.equal(failure("linked/../prompts/main.md").rule, "symlink");
  });

  test("a hank dir reached through a symlink is fine", () => {
    const alias = path.join(root, "hank-alias");
    fs.symlinkSync(hank, alias);
    const result = checkRef(alias, "prompts/main.md", "file");
    assert.equal(result.ok, true);
    if (result.ok) assert.equal(result.absolutePath, path.join(alias, "prompts", "main.md"));
  });
});

describe("checkRef existence and kind", () => {
  test("missing file", () => {
    const result = failure("prompts/missing.md");
    assert.equal(result.rule, "not-found");
    assert.equal(result.message, '"prompts/missing.md" does not exist');
    assert.equal(result.phrase, "does not exist");
    assert.equal(result.absolutePath, path.join(hank, "prompts", "missing.md"));
  });

  test("a file used as a directory does not exist", () => {
    assert.equal(failure("prompts/main.md/x").message, '"prompts/main.md/x" does not exist');
    assert.equal(failure("prompts/main.md/../main.md").rule, "not-found");
  });

  test("a directory where a file is expected", () => {
    const result = failure("prompts");
    assert.equal(result.rule, "not-a-file");
    assert.equal(result.message, '"prompts" is not a regular file');
  });

  test("a file where a directory is expected", () => {
    const result = failure("prompts/main.md", "directory");
    assert.equal(result.rule, "not-a-directory");
    assert.equal(result.message, '"prompts/main.md" is not a directory');
  });

  test("an accepted file is normalized", () => {
    const result = checkRef(hank, "./prompts//deep/../main.md", "file");
    assert.deepEqual(result, {
      ok: true,
      absolutePath: path.join(hank, "prompts", "main.md"),
      relativePath: "prompts/main.md",
      kind: "file",
      size: 6,
    });
  });

  test("any accepts a directory; . names the hank dir", () => {
    const result = checkRef(hank, ".", "any");
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(result.relativePath, ".");
      assert.equal(result.kind, "directory");
    }
  });

  test("base: refs relative to a folder inside the hank, containment still from the hank", () => {
    const ok = checkRef(hank, "x.md", "file", { base: "prompts/deep" });
    assert.equal(ok.ok && ok.relativePath, "prompts/deep/x.md");
    assert.equal(checkRef(hank, "../main.md", "file", { base: "prompts/deep" }).ok, true);
    const out = checkRef(hank, "../../../outside.md", "file", { base: "prompts/deep" });
    assert.equal(!out.ok && out.rule, "escapes-hank-dir");
  });
});
