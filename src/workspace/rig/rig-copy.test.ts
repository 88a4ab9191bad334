import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { commandOp, copyOp, type RigFixture, rigFixture, rigRecorder } from "./test-support.ts";

let fx: RigFixture;
beforeEach(() => {
  fx = rigFixture();
});
afterEach(() => fx.remove());

test("copies a file under a new name and reports it as lastCopied", async () => {
  fx.write(join(fx.hankDir, "templates", "config.json"), '{"a":1}');
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("./templates/config.json", "conf/app.json")]);
  assert.equal(result.ok, true);
  assert.equal(result.lastCopied, join(fx.agentRoot, "conf", "app.json"));
  assert.equal(readFileSync(join(fx.agentRoot, "conf", "app.json"), "utf8"), '{"a":1}');
  assert.deepEqual(h.ofType("rig.setup.completed"), [
    { codonId: "setup", rigType: "command", commandCount: 1, durationMs: 0, createdCheckpoint: false },
  ]);
  assert.deepEqual(
    h.ofType("info").map((d) => d.message),
    [
      "Rig operation 1/1: copy ./templates/config.json → conf/app.json",
      "Rig setup completed for codon 'setup' (0ms, 1 succeeded)",
    ],
  );
});

test("copies a tree, leaving out what the hank's .gitignore excludes, and replaces an old target", async () => {
  fx.write(join(fx.hankDir, ".gitignore"), "node_modules/\n*.log\n!keep.log\n/tpl/build\n");
  fx.write(join(fx.hankDir, "tpl", "src", "index.ts"), "x");
  fx.write(join(fx.hankDir, "tpl", "debug.log"), "");
  fx.write(join(fx.hankDir, "tpl", "keep.log"), "kept");
  fx.write(join(fx.hankDir, "tpl", "build", "out.js"), "");
  fx.write(join(fx.hankDir, "tpl", "node_modules", "pkg", "index.js"), "");
  symlinkSync("../pkg", join(fx.hankDir, "tpl", "node_modules", "link"));
  fx.write(join(fx.agentRoot, "code", "stale.txt"), "old");
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("tpl", "code")]);
  assert.equal(result.ok, true);
  assert.deepEqual(result.excluded, ["tpl/build/", "tpl/debug.log", "tpl/node_modules/"]);
  assert.equal(readFileSync(join(fx.agentRoot, "code", "src", "index.ts"), "utf8"), "x");
  assert.equal(readFileSync(join(fx.agentRoot, "code", "keep.log"), "utf8"), "kept");
  for (const gone of ["stale.txt", "debug.log", "build", "node_modules"]) {
    assert.equal(existsSync(join(fx.agentRoot, "code", gone)), false, gone);
  }
  assert.ok(
    h
      .ofType("info")
      .some(
        (d) =>
          d.message ===
          "Rig copy excluded 3 entries (.gitignore): tpl/build/, tpl/debug.log, tpl/node_modules/",
      ),
  );
});

test("without a .gitignore the built-in defaults apply, and .git is always left out", async () => {
  fx.write(join(fx.hankDir, "tpl", "a.txt"), "a");
  fx.write(join(fx.hankDir, "tpl", "dist", "b.js"), "");
  fx.write(join(fx.hankDir, "tpl", "x.log"), "");
  fx.write(join(fx.hankDir, "tpl", ".git", "HEAD"), "");
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("tpl", "t")]);
  assert.deepEqual(result.excluded, ["tpl/.git/", "tpl/dist/", "tpl/x.log"]);
  assert.equal(readFileSync(join(fx.agentRoot, "t", "a.txt"), "utf8"), "a");
});

test("copy targets that leave agentRoot, name agentRoot or pass a symlink are refused", async () => {
  fx.write(join(fx.hankDir, "tpl", "a.txt"), "");
  mkdirSync(join(fx.root, "outside"));
  symlinkSync(join(fx.root, "outside"), join(fx.agentRoot, "planted"));
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("tpl", "../escape"), copyOp("tpl", "."), copyOp("tpl", "planted/x")], {
    ignoreRigFailures: true,
  });
  assert.deepEqual(
    result.failures.map((f) => f.message),
    [
      'Target path "../escape" would write outside execution directory',
      'Invalid target path ".": it names agentRoot itself; name a path inside it',
      'Target path "planted/x" would write outside execution directory: "planted" is a symlink',
    ],
  );
  assert.equal(existsSync(join(fx.root, "outside", "x")), false);
});

test("a command in lastCopied after a file copy fails with a clear message", async () => {
  fx.write(join(fx.hankDir, "a.txt"), "");
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("a.txt", "a.txt"), commandOp("pwd", "lastCopied")]);
  assert.equal(result.ok, false);
  assert.equal(
    result.failures[0]?.message,
    `Command could not start (working directory "${join(fx.agentRoot, "a.txt")}" is not a directory): pwd`,
  );
  assert.equal(result.failures[0]?.failureType, "other");
});
