import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { applyModelOverride, loadHankFile } from "./load.ts";

let cwd: string;

before(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), "hw-load-"));
  fs.mkdirSync(path.join(cwd, "proj"));
  fs.writeFileSync(path.join(cwd, "proj", "hank.json"), '\uFEFF{"hank": []}\n');
  fs.writeFileSync(path.join(cwd, "flow.json"), '{"meta": {"name": "x"}}');
  fs.writeFileSync(path.join(cwd, "broken.json"), '{\n  "hank": [\n    {"id": "a",},\n  ]\n}\n');
  fs.mkdirSync(path.join(cwd, "no-hank"));
  fs.writeFileSync(path.join(cwd, "no-hank", "b.json"), "{}");
  fs.writeFileSync(path.join(cwd, "no-hank", "a.json"), "{}");
  fs.mkdirSync(path.join(cwd, "empty-dir"));
});

after(() => fs.rmSync(cwd, { recursive: true, force: true }));

describe("loadHankFile", () => {
  test("a .json file", () => {
    assert.deepEqual(loadHankFile("flow.json", cwd), {
      ok: true,
      hankPath: path.join(cwd, "flow.json"),
      hankDir: cwd,
      raw: { meta: { name: "x" } },
      text: '{"meta": {"name": "x"}}',
    });
  });

  test("bytes that are not UTF-8 are refused, naming the line, column and byte", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"meta": {"name": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"},\n "hank": []}'),
    ]);
    fs.writeFileSync(path.join(cwd, "latin1.json"), bytes);
    const loaded = loadHankFile("latin1.json", cwd);
    assert.equal(loaded.ok, false);
    assert.equal(loaded.ok ? "" : loaded.issue.code, "hank-not-utf8");
    assert.equal(
      loaded.ok ? "" : loaded.issue.message,
      `${path.join(cwd, "latin1.json")} is not valid UTF-8: byte 0xe9 at line 1, column 23 (offset 22)`,
    );
    assert.match(loaded.ok ? "" : loaded.issue.hint, /Save the file as UTF-8/);
  });

  test("a directory: hank.json inside is discovered; the BOM is dropped", () => {
    const loaded = loadHankFile("proj", cwd);
    assert.deepEqual(loaded, {
      ok: true,
      hankPath: path.join(cwd, "proj", "hank.json"),
      hankDir: path.join(cwd, "proj"),
      raw: { hank: [] },
      text: '{"hank": []}\n',
    });
  });

  test("a missing file", () => {
    const loaded = loadHankFile("nope.json", cwd);
    const file = path.join(cwd, "nope.json");
    assert.deepEqual(loaded, {
      ok: false,
      issue: {
        severity: "error",
        code: "hank-not-found",
        path: [],
        message: "Hank file not found: nope.json",
        hint: "Pass a hank .json file or a directory that contains hank.json.",
        file,
      },
    });
  });

  test("a typo names the argument as typed and the entries it probably meant", () => {
    const loaded = loadHankFile(path.join(cwd, "flwo.json"), cwd);
    assert.equal(!loaded.ok && loaded.issue.message, "Hank file not found: flwo.json");
    assert.equal(
      !loaded.ok && loaded.issue.hint,
      "Did you mean flow.json? Pass a hank .json file or a directory that contains hank.json.",
    );
    const dir = loadHankFile("prj", cwd);
    assert.equal(!dir.ok && dir.issue.hint?.startsWith("Did you mean proj?"), true);
    const outside = loadHankFile("/nonexistent-root-dir/hank.json", cwd);
    assert.equal(
      !outside.ok && outside.issue.message,
      "Hank file not found: /nonexistent-root-dir/hank.json",
    );
  });

  test("a directory without hank.json lists its JSON files in the hint", () => {
    const loaded = loadHankFile("no-hank", cwd);
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    const dir = path.join(cwd, "no-hank");
    assert.equal(loaded.issue.code, "hank-not-found");
    assert.equal(loaded.issue.message, "No hank.json in directory no-hank");
    assert.equal(
      loaded.issue.hint,
      `Pass the hank file itself, e.g. ${path.join("no-hank", "a.json")}, ${path.join("no-hank", "b.json")}; or a directory that contains hank.json.`,
    );
    assert.equal(loaded.issue.file, path.join(dir, "hank.json"));
  });

  test("an empty directory: the hint names no flag that does not exist yet", () => {
    const loaded = loadHankFile("empty-dir", cwd);
    assert.equal(
      !loaded.ok && loaded.issue.hint,
      "Pass a hank .json file or a directory that contains hank.json.",
    );
  });

  test("invalid JSON: line, column and a fix hint", () => {
    const loaded = loadHankFile("broken.json", cwd);
    const file = path.join(cwd, "broken.json");
    assert.deepEqual(loaded, {
      ok: false,
      issue: {
        severity: "error",
        code: "invalid-json",
        path: [],
        message: `Invalid JSON in ${file} at line 3, column 16: Trailing comma before '}'`,
        hint: "Remove the comma after the last property. Fix the JSON at line 3, column 16.",
        file,
      },
      position: { line: 3, column: 16, offset: 29 },
    });
  });

  test("a FIFO is refused without being read", (t) => {
    const fifo = path.join(cwd, "pipe.json");
    const made = spawnSync("mkfifo", [fifo]);
    if (made.error !== undefined || made.status !== 0) {
      t.skip("mkfifo is not available on this system");
      return;
    }
    const loaded = loadHankFile("pipe.json", cwd);
    assert.deepEqual(!loaded.ok && [loaded.issue.code, loaded.issue.message], [
      "hank-not-a-file",
      `Hank path ${fifo} is not a regular file`,
    ]);
  });

  test("stdin, bundles and remote hanks are not supported yet", () => {
    const codes = ["-", "x.hank", "x.tar.zst", "git@github.com:o/r.git"].map((target) => {
      const loaded = loadHankFile(target, cwd);
      return loaded.ok ? "ok" : loaded.issue.code;
    });
    assert.deepEqual(codes, [
      "hank-stdin-unsupported",
      "hank-bundle-unsupported",
      "hank-bundle-unsupported",
      "hank-remote-unsupported",
    ]);
  });
});

describe("applyModelOverride", () => {
  test("replaces every codon's model, loop children included, without touching the input", () => {
    const raw = {
      meta: { name: "m" },
      overrides: { model: "sonnet" },
      hank: [
        { id: "a", model: "sonnet" },
        { type: "loop", id: "l", codons: [{ id: "b", model: "opus" }, { id: "c" }, "junk"] },
        { type: "codon", id: "d" },
        7,
      ],
    };
    const before = structuredClone(raw);
    assert.deepEqual(applyModelOverride(raw, "scripted"), {
      meta: { name: "m" },
      overrides: { model: "sonnet" },
      hank: [
        { id: "a", model: "scripted" },
        {
          type: "loop",
          id: "l",
          codons: [{ id: "b", model: "scripted" }, { id: "c", model: "scripted" }, "junk"],
        },
        { type: "codon", id: "d", model: "scripted" },
        7,
      ],
    });
    assert.deepEqual(raw, before);
  });

  test("non-object input and a missing hank array are left as they are", () => {
    assert.equal(applyModelOverride("text", "x"), "text");
    assert.equal(applyModelOverride(null, "x"), null);
    const list = [{ model: "a" }];
    assert.equal(applyModelOverride(list, "x"), list);
    assert.deepEqual(applyModelOverride({ hank: "no" }, "x"), { hank: "no" });
  });
});
