import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";

/**
 * The README's library program, run exactly as printed against the built package (`import ... from
 * "hankweave"` resolves through the package's own exports when the program sits inside the package).
 * It needs `npm run build` first, as the README's quick start does.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");

function readmeProgram(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const library = readme.slice(readme.indexOf("## Library"));
  const match = /```js\n([\s\S]*?)```/.exec(library);
  assert.ok(match?.[1], "README.md has a ```js program under ## Library");
  return match[1];
}

describe("the README's library program", () => {
  let base: string;
  let programDir: string;
  before(() => {
    assert.ok(
      existsSync(join(ROOT, "dist", "index.js")),
      "dist/ is missing: run `npm run build` before the tests",
    );
    base = mkdtempSync(join(tmpdir(), "hw-readme-"));
    programDir = join(ROOT, `.hankweave-test-readme-${process.pid}`);
    mkdirSync(programDir, { recursive: true });
  });
  after(() => {
    rmSync(base, { recursive: true, force: true });
    rmSync(programDir, { recursive: true, force: true });
  });

  it("is under 15 lines of code and runs a hank with a workspace, checkpoints and a journal", () => {
    const program = readmeProgram();
    assert.ok(program.trim().split("\n").length < 15, "the README program stays under 15 lines");
    const file = join(programDir, "program.mjs");
    writeFileSync(file, program);
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    const run = spawnSync(process.execPath, [file], {
      cwd: ROOT,
      env: { ...env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^completed: \d+ codons$/m);
    const workspace = /^workspace: (.+)$/m.exec(run.stdout)?.[1];
    assert.ok(workspace !== undefined && existsSync(workspace), run.stdout);
    const executionDir = resolve(workspace, "..");
    assert.ok(existsSync(join(executionDir, ".hankweave", "events", "events.jsonl")));
    const log = spawnSync(
      "git",
      [
        "--git-dir",
        join(executionDir, ".hankweave", "checkpoints", ".hankweavecheckpoints"),
        "log",
        "--all",
        "--oneline",
      ],
      { encoding: "utf8" },
    );
    assert.equal(log.status, 0, log.stderr);
    assert.ok(log.stdout.trim().split("\n").length >= 3, log.stdout);
  });
});
