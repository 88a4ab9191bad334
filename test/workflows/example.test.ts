import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";

/**
 * examples/coder-reviewer, run as written (`import ... from "hankweave"`), offline: the preload
 * resolves "hankweave" to the sources so the test needs no build.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const EXAMPLE = join(ROOT, "examples", "coder-reviewer", "coder-reviewer.mjs");
const FROM_SOURCE = join(import.meta.dirname, "fixtures", "hankweave-from-source.mjs");

describe("examples/coder-reviewer", () => {
  const workspace = mkdtempSync(join(tmpdir(), "hankweave-example-"));
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it("converges offline in two iterations: the reviewer finds the bug, the coder fixes it", () => {
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--import", FROM_SOURCE, EXAMPLE, "--workspace", workspace],
      { cwd: ROOT, env, encoding: "utf8" },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(run.stdout.trim().split("\n"), [
      "1. coder: ok | Please review add.mjs and add.test.mjs.",
      "1. reviewer: ok | add() subtracts: add(2, 3) returns -1. In add.mjs line 2, return a + b.",
      "2. coder: ok | Fixed add.mjs: add() now returns a + b. Please review again.",
      "2. reviewer: ok | LGTM: the three cases pass and add() adds.",
      `workspace: ${workspace}`,
      "ok: true, converged: true, end: until, iterations: 2, cost: $0.0000",
    ]);
    assert.match(readFileSync(join(workspace, "add.mjs"), "utf8"), /return a \+ b;/);
    assert.match(readFileSync(join(workspace, "review.md"), "utf8"), /subtracts/);
  });
});
