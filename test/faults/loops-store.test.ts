import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment, REPO_ROOT } from "../fixtures/hankweave-cli.ts";

/**
 * Item: the loops commands end a fault with one line, not a stack trace: a file that is not a SQLite
 * database where the store should be, and a loop id too long to make a directory name of.
 */

describe("loops store faults", () => {
  const { box, bin } = cliSandbox("loops-store");
  const loops = (args: readonly string[]) =>
    spawnSync(process.execPath, [bin(), "loops", ...args], {
      cwd: box.root,
      env: cliEnvironment({ HOME: box.root }),
      encoding: "utf8",
      timeout: 60_000,
    });

  it("a store that is not a database: one line naming it, the cause and the fix", () => {
    const db = join(box.root, "not-a.db");
    writeFileSync(db, "these bytes are not a SQLite database\n");
    const run = loops(["ls", "--db", db]);
    assert.equal(run.status, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
    assert.equal(
      run.stderr.trim(),
      `✗ Cannot open ${db}: the file is not a SQLite database (SQLITE_NOTADB). Point --db at the loops store, or move the file aside (an empty store is made in its place), then run again.`,
    );
  });

  it("a loop id too long for a directory name: refused by the definition's check, with the fix", () => {
    const dir = join(box.root, "loops");
    cpSync(join(REPO_ROOT, "examples", "loops"), dir, { recursive: true });
    const definition = join(dir, "done.loop.toml");
    const text = readFileSync(definition, "utf8").replace(/^id = ".*"$/m, `id = "${"a".repeat(300)}"`);
    writeFileSync(definition, text);
    const run = loops(["run", definition, "--db", join(box.root, "store.db")]);
    assert.equal(run.status, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
    // The definition's check refuses the id (at most 64 characters) before a directory is named by it.
    assert.equal(
      run.stderr.trim(),
      `error: ${definition} id: id must be at most 64 character(s).\n  fix: Set id to at most 64 character(s).`,
    );
  });
});
