import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { resolvePositionals } from "./load-positionals.ts";

let cwd: string;

before(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), "hw-positionals-"));
  fs.mkdirSync(path.join(cwd, "with-hank"));
  fs.writeFileSync(path.join(cwd, "with-hank", "hank.json"), "{}");
  fs.mkdirSync(path.join(cwd, "data"));
});

after(() => fs.rmSync(cwd, { recursive: true, force: true }));

describe("resolvePositionals", () => {
  test("none: hank.json in cwd, no data", () => {
    assert.deepEqual(resolvePositionals([], cwd), {
      ok: true,
      hank: path.join(cwd, "hank.json"),
      hankFrom: "default",
    });
  });

  test("one .json: the hank", () => {
    assert.deepEqual(resolvePositionals(["my/flow.JSON"], cwd), {
      ok: true,
      hank: path.join(cwd, "my", "flow.JSON"),
      hankFrom: "argument",
    });
  });

  test("one directory containing hank.json: the hank (auto-discovered)", () => {
    assert.deepEqual(resolvePositionals(["with-hank"], cwd), {
      ok: true,
      hank: path.join(cwd, "with-hank"),
      hankFrom: "argument",
    });
  });

  test("one other path: the data, hank defaults to hank.json in cwd", () => {
    assert.deepEqual(resolvePositionals(["data"], cwd), {
      ok: true,
      hank: path.join(cwd, "hank.json"),
      data: path.join(cwd, "data"),
      hankFrom: "default",
    });
    fs.writeFileSync(path.join(cwd, "hank.json"), "{}");
    try {
      assert.deepEqual(resolvePositionals(["missing-dir"], cwd), {
        ok: true,
        hank: path.join(cwd, "hank.json"),
        data: path.join(cwd, "missing-dir"),
        hankFrom: "default",
      });
    } finally {
      fs.rmSync(path.join(cwd, "hank.json"));
    }
  });

  test("one path that names nothing, with no hank.json here: the message names the argument as typed", () => {
    assert.deepEqual(resolvePositionals(["with-hnak"], cwd), {
      ok: false,
      message:
        "'with-hnak' does not exist, and there is no hank.json in the current directory to use it as data with. Did you mean with-hank? Pass a hank file (or a directory that contains hank.json), then the data path.",
    });
    assert.deepEqual(resolvePositionals(["missing-dir"], cwd, true), {
      ok: true,
      hank: path.join(cwd, "hank.json"),
      data: path.join(cwd, "missing-dir"),
      hankFrom: "default",
    });
  });

  test("one bundle, URL or stdin: the hank, as given", () => {
    assert.deepEqual(resolvePositionals(["flow.hank"], cwd), {
      ok: true,
      hank: path.join(cwd, "flow.hank"),
      hankFrom: "argument",
    });
    const url = "https://github.com/o/r";
    assert.deepEqual(resolvePositionals([url], cwd), { ok: true, hank: url, hankFrom: "argument" });
    assert.deepEqual(resolvePositionals(["-"], cwd), { ok: true, hank: "-", hankFrom: "argument" });
  });

  test("two: hank then data", () => {
    assert.deepEqual(resolvePositionals(["data", "/abs/in"], cwd), {
      ok: true,
      hank: path.join(cwd, "data"),
      data: "/abs/in",
      hankFrom: "argument",
    });
  });

  test("three or more: rejected", () => {
    assert.deepEqual(resolvePositionals(["a", "b", "c"], cwd), {
      ok: false,
      message: "Too many positional arguments. Expected at most 2 (hank-path, data-path), got 3.",
    });
  });
});
