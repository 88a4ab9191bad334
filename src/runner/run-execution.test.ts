import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { checkGit } from "./run-execution.ts";

describe("checkGit", { skip: process.platform === "win32" }, () => {
  const path = process.env.PATH;
  const dirs: string[] = [];
  afterEach(() => {
    process.env.PATH = path;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const pathOf = (files: Record<string, number>): string => {
    const dir = mkdtempSync(join(tmpdir(), "hw-check-git-"));
    dirs.push(dir);
    for (const [name, mode] of Object.entries(files)) {
      writeFileSync(join(dir, name), "#!/bin/sh\n");
      chmodSync(join(dir, name), mode);
    }
    return dir;
  };

  it("finds an executable git on PATH without running it", () => {
    process.env.PATH = pathOf({ git: 0o755 });
    assert.equal(checkGit(), undefined);
  });

  it("says git is missing when no directory of PATH holds an executable git", () => {
    process.env.PATH = `${pathOf({ git: 0o644 })}:${pathOf({})}`;
    assert.equal(
      checkGit(),
      "git is required for checkpoints but was not found on PATH. Install git and run again.",
    );
  });
});
