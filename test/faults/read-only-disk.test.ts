import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * Item: a read-only file system ends every command with one line (path, reason, code, fix), never a
 * stack trace. The read-only disk is real: the CLI runs in a mount namespace of its own (`unshare -rm`,
 * which needs no privilege where user namespaces are allowed) in which the executions' directory is
 * bind-mounted read-only; the kernel answers EROFS. The namespace ends with the process: nothing to
 * clean up.
 */

function readOnlyMountWorks(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "hw-ro-probe-"));
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", roMount(dir, `touch '${dir}/x'`)], {
    encoding: "utf8",
  });
  return probe.status !== 0 && /Read-only file system/.test(probe.stderr);
}

function roMount(dir: string, command: string): string {
  return `mount --bind '${dir}' '${dir}' && mount -o remount,bind,ro '${dir}' && ${command}`;
}

const ONE_LINE_EROFS =
  /^✗ Cannot \w+( the directory| to)? \/\S+: the file system is read-only \(EROFS\)\. Put executions on a writable disk/;

describe("commands on a read-only file system", {
  skip: readOnlyMountWorks() ? false : "unshare -rm is not permitted here",
}, () => {
  const { box, env, bin } = cliSandbox("read-only-disk");
  const executions = box.executions;
  const existing = join(executions, "done");
  const hank = writeHank(join(box.root, "hank"), [
    codon("a", "@append trail.txt a", { checkpointedFiles: ["**"] }),
  ]);
  before(() => {
    mkdirSync(executions, { recursive: true });
    const made = spawnSync(process.execPath, [bin(), hank, "--headless", "-e", existing], {
      env: cliEnvironment(env),
      encoding: "utf8",
    });
    assert.equal(made.status, 0, made.stderr);
  });

  /** Runs the CLI with `executions` read-only; returns its stderr after asserting exit code 1. */
  function readOnly(args: readonly string[]): string {
    const quoted = [process.execPath, bin(), ...args].map((a) => `'${a}'`).join(" ");
    const run = spawnSync("unshare", ["-rm", "sh", "-c", roMount(executions, `exec ${quoted}`)], {
      env: cliEnvironment(env),
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
    return run.stderr.trim().split("\n").at(-1) ?? "";
  }

  it("a start that resumes", () => {
    assert.match(readOnly([hank, "--headless"]), ONE_LINE_EROFS);
  });

  it("a new execution", () => {
    const other = writeHank(join(box.root, "other"), [codon("b", "@append trail.txt b")]);
    assert.match(readOnly([other, "--headless"]), ONE_LINE_EROFS);
  });

  it("rollback", () => {
    assert.match(readOnly(["rollback", "a", "-e", existing]), ONE_LINE_EROFS);
  });

  it("--cleanup -y", () => {
    assert.match(readOnly(["--cleanup", "-y", "-e", existing]), ONE_LINE_EROFS);
  });

  it("--diet-journal", () => {
    assert.match(readOnly(["--diet-journal", existing]), ONE_LINE_EROFS);
  });
});
