import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { type WorkspaceFixture, workspaceFixture } from "./test-support.ts";
import { scanWorkspace, workspaceGlobProblem } from "./workspace-scan.ts";

let fx: WorkspaceFixture;
beforeEach(() => {
  fx = workspaceFixture();
});
afterEach(() => fx.remove());

test("a directory name takes its whole tree; each glob that matched nothing is listed", async () => {
  fx.write(fx.agentRoot, "notes/a.md");
  fx.write(fx.agentRoot, "notes/deep/b.md");
  fx.write(fx.agentRoot, "other.md");
  const scan = await scanWorkspace(fx.agentRoot, ["notes", "*.txt", "other.md"]);
  assert.deepEqual(scan, {
    matches: [
      { path: "notes/a.md", kind: "file" },
      { path: "notes/deep/b.md", kind: "file" },
      { path: "other.md", kind: "file" },
    ],
    unmatchedGlobs: ["*.txt"],
    skipped: [],
    unreadable: [],
  });
});

test("FIFOs are skipped, nested .hankweave directories (any case) are never entered", async () => {
  fx.write(fx.agentRoot, "sub/.HankWeave/x.json");
  fx.write(fx.agentRoot, "sub/keep.txt");
  execFileSync("mkfifo", [join(fx.agentRoot, "sub", "pipe")]);
  const scan = await scanWorkspace(fx.agentRoot, ["sub/**"]);
  assert.deepEqual(scan.matches, [{ path: "sub/keep.txt", kind: "file" }]);
  assert.deepEqual(scan.skipped, [{ path: "sub/pipe", reason: "is not a regular file" }]);
});

test("the data link is never taken, even as a link; a missing agentRoot is unreadable", async () => {
  symlinkSync(fx.outside, join(fx.agentRoot, "read_only_data_source"));
  const scan = await scanWorkspace(fx.agentRoot, ["*"]);
  assert.deepEqual(scan.matches, []);
  const missing = await scanWorkspace(join(fx.root, "nowhere"), ["*"]);
  assert.equal(missing.unreadable.length, 1);
  assert.equal(missing.unreadable[0]?.path, ".");
  assert.match(missing.unreadable[0]?.error ?? "", /^ENOENT/);
});

test("workspace globs are checked with the workspace path rules", () => {
  assert.equal(workspaceGlobProblem(["a/**", "b.md"]), null);
  assert.equal(
    workspaceGlobProblem(["/etc/passwd"]),
    '"/etc/passwd" is an absolute path; workspace paths are relative to agentRoot',
  );
  assert.equal(
    workspaceGlobProblem(["a/../../b"]),
    '"a/../../b" contains a ".." segment; workspace paths may not leave agentRoot',
  );
});
