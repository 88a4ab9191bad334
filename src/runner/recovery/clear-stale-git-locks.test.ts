import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { clearStaleGitLocks } from "./clear-stale-git-locks.ts";

describe("clearStaleGitLocks", () => {
  it("removes the lock files a killed git left, and nothing else", () => {
    const gitDir = mkdtempSync(join(tmpdir(), "hw-git-locks-"));
    try {
      mkdirSync(join(gitDir, "refs", "heads", "run"), { recursive: true });
      for (const file of [
        "index",
        "index.lock",
        "HEAD",
        "HEAD.lock",
        "refs/heads/run/r1",
        "refs/heads/run/r1.lock",
      ]) {
        writeFileSync(join(gitDir, file), "");
      }
      assert.deepEqual(clearStaleGitLocks(gitDir).sort(), [
        "HEAD.lock",
        "index.lock",
        "refs/heads/run/r1.lock",
      ]);
      for (const kept of ["index", "HEAD", "refs/heads/run/r1"])
        assert.ok(existsSync(join(gitDir, kept)), kept);
      assert.deepEqual(clearStaleGitLocks(gitDir), []);
    } finally {
      rmSync(gitDir, { recursive: true, force: true });
    }
  });

  it("finds nothing in a store that does not exist yet", () => {
    assert.deepEqual(clearStaleGitLocks(join(tmpdir(), "hw-no-such-git-dir", "x")), []);
  });
});
