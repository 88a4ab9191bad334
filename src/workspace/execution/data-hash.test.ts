import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type DataHashResult, DEFAULT_DATA_HASH_TIME_LIMIT_MS, hashDataSource } from "./data-hash.ts";

const root = mkdtempSync(join(tmpdir(), "hw-data-hash-"));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function tree(files: Record<string, string>): string {
  const dir = join(root, `t${counter++}`);
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const stillClock = { now: () => 1_000 };
const options = { timeLimitMs: DEFAULT_DATA_HASH_TIME_LIMIT_MS, clock: stillClock };

/** A clock that reads `start` once, then jumps far past any limit. */
function jumpingClock(start: number): { now(): number } {
  let reads = 0;
  return { now: () => (reads++ === 0 ? start : start + 60_000) };
}

async function hashOf(path: string, opts = options): Promise<string> {
  return hashed(await hashDataSource(path, opts)).hash;
}

function hashed(result: DataHashResult) {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe("hashDataSource", () => {
  it("is stable across runs and across copies of the same tree", async () => {
    const a = tree({ "b.txt": "bee", "a/one.txt": "1", "a/two.txt": "22" });
    const b = tree({ "a/two.txt": "22", "b.txt": "bee", "a/one.txt": "1" });
    const first = hashed(await hashDataSource(a, options));
    assert.equal(first.method, "content");
    assert.equal(first.files, 3);
    assert.equal(first.bytes, 6);
    assert.equal(first.fallbackReason, undefined);
    assert.match(first.hash, /^[0-9a-f]{64}$/);
    assert.equal(await hashOf(a), first.hash);
    assert.equal(await hashOf(b), first.hash);
  });

  it("changes with content of the same size, with names and with empty directories", async () => {
    const base = await hashOf(tree({ "x.txt": "abc" }));
    assert.notEqual(await hashOf(tree({ "x.txt": "abd" })), base);
    assert.notEqual(await hashOf(tree({ "y.txt": "abc" })), base);
    const withEmptyDir = tree({ "x.txt": "abc" });
    mkdirSync(join(withEmptyDir, "empty"));
    assert.notEqual(await hashOf(withEmptyDir), base);
  });

  it("hashes symlinks by their target string without following them", async () => {
    const a = tree({ "real.txt": "data" });
    symlinkSync("real.txt", join(a, "link"));
    symlinkSync(".", join(a, "loop"));
    symlinkSync("/nowhere/at/all", join(a, "dangling"));
    const b = tree({ "real.txt": "data" });
    symlinkSync("real.txt", join(b, "link"));
    symlinkSync(".", join(b, "loop"));
    symlinkSync("/nowhere/at/all", join(b, "dangling"));
    const c = tree({ "real.txt": "data" });
    symlinkSync("./real.txt", join(c, "link"));
    symlinkSync(".", join(c, "loop"));
    symlinkSync("/nowhere/at/all", join(c, "dangling"));
    const hashA = hashed(await hashDataSource(a, options));
    assert.equal(hashA.method, "content");
    assert.equal(hashA.files, 1);
    assert.equal(await hashOf(b), hashA.hash);
    assert.notEqual(await hashOf(c), hashA.hash);
  });

  it("hashes a single file by its content, not its name", async () => {
    const dir = tree({ "one.txt": "same", "two.txt": "same", "three.txt": "other" });
    const one = hashed(await hashDataSource(join(dir, "one.txt"), options));
    assert.deepEqual(
      { method: one.method, files: one.files, bytes: one.bytes },
      { method: "content", files: 1, bytes: 4 },
    );
    assert.equal(await hashOf(join(dir, "two.txt")), one.hash);
    assert.notEqual(await hashOf(join(dir, "three.txt")), one.hash);
  });

  it("follows a data source that is itself a link", async () => {
    const real = tree({ "f.txt": "x" });
    const link = join(root, `link${counter++}`);
    symlinkSync(real, link);
    assert.equal(await hashOf(link), await hashOf(real));
  });

  it("falls back to the metadata signature when the time limit passes", async () => {
    const dir = tree({ "a.txt": "aaa", "b.txt": "b" });
    const when = new Date("2025-01-15T10:30:00Z");
    utimesSync(join(dir, "a.txt"), when, when);
    utimesSync(join(dir, "b.txt"), when, when);
    const slow = { timeLimitMs: 5000, clock: jumpingClock(0) };
    const result = hashed(await hashDataSource(dir, slow));
    assert.deepEqual(
      { method: result.method, files: result.files, bytes: result.bytes, reason: result.fallbackReason },
      { method: "metadata", files: 2, bytes: 4, reason: "time-limit" },
    );
    assert.notEqual(result.hash, await hashOf(dir));
    assert.equal(await hashOf(dir, { timeLimitMs: 5000, clock: jumpingClock(0) }), result.hash);
    const later = new Date("2025-01-15T10:31:00Z");
    utimesSync(join(dir, "b.txt"), later, later);
    assert.notEqual(await hashOf(dir, { timeLimitMs: 5000, clock: jumpingClock(0) }), result.hash);
  });

  it("hashes an empty directory by content even with a jumping clock (no file to time out on)", async () => {
    const dir = tree({});
    const result = hashed(await hashDataSource(dir, { timeLimitMs: 0, clock: jumpingClock(0) }));
    assert.deepEqual({ method: result.method, files: result.files }, { method: "content", files: 0 });
  });

  it("reports a missing data source as a failure value", async () => {
    const missing = join(root, "does-not-exist");
    assert.deepEqual(await hashDataSource(missing, options), {
      ok: false,
      message: `Data source ${missing} cannot be read (ENOENT).`,
    });
  });
});
