import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, it } from "node:test";
import { runCachedScript } from "./cached-script.ts";

const base = mkdtempSync(join(tmpdir(), "hw-cached-script-"));
after(() => rmSync(base, { recursive: true, force: true }));

let made = 0;

/**
 * A bundle of its own (V8 keeps what a process compiled in memory, so each case compiles new source
 * text): it exports what its host parameter gives and a function to call.
 */
function bundle(hash = `H${made}`): string {
  made += 1;
  const dir = join(base, `case-${made}`);
  mkdirSync(dir);
  const file = join(dir, `cli-${hash}.cjs`);
  const body = `exports.host = host.name; exports.strict = (function () { return this; })() === undefined;
exports.twice = (n) => n * 2; // case ${made}\n`;
  writeFileSync(file, body);
  return file;
}

function load(file: string, cacheDirs: readonly string[], profile = "main") {
  return runCachedScript({ file, profile, cacheDirs, parameters: { host: { name: "the bin" } } });
}

describe("runCachedScript", () => {
  it("runs a CommonJS script in strict mode with the given parameters", () => {
    const file = bundle();
    const { exports } = load(file, [join(base, "unused")]);
    assert.deepEqual(
      { ...(exports as object), twice: undefined },
      { host: "the bin", strict: true, twice: undefined },
    );
    assert.equal((exports as { twice(n: number): number }).twice(4), 8);
  });

  it("writes the cache once when there was none, and reads it on the next start", () => {
    const file = bundle();
    const dir = join(base, `cache-${made}`);
    load(file, [dir]).saveCache();
    const [name] = readdirSync(dir);
    assert.match(name ?? "", /^cli-H\d+\.cjs\.main\.[a-z0-9]+-v8-.+-[0-9a-f]{8}\.cache$/);
    const written = statSync(join(dir, name ?? "")).mtimeMs;
    const next = load(file, [dir]);
    next.saveCache();
    assert.equal(statSync(join(dir, name ?? "")).mtimeMs, written, "a usable cache is not rewritten");
  });

  it("keeps one cache per profile", () => {
    const file = bundle();
    const dir = join(base, `cache-${made}`);
    load(file, [dir], "validate").saveCache();
    load(file, [dir], "main").saveCache();
    assert.deepEqual(
      readdirSync(dir).map((name) => name.split(".")[2]),
      ["main", "validate"],
    );
  });

  it("replaces a cache V8 rejects", () => {
    // The cache's name, learnt from another bundle's: this bundle must not have been compiled yet (V8
    // would take it from memory and never look at the file).
    const other = bundle();
    const otherDir = join(base, `cache-${made}`);
    load(other, [otherDir]).saveCache();
    const [otherName = ""] = readdirSync(otherDir);
    const file = bundle();
    const dir = join(base, `cache-${made}`);
    mkdirSync(dir);
    const path = join(dir, `${basename(file)}${otherName.slice(basename(other).length)}`);
    writeFileSync(path, "not a code cache");
    const loaded = load(file, [dir]);
    assert.equal((loaded.exports as { host: string }).host, "the bin");
    loaded.saveCache();
    assert.ok(statSync(path).size > "not a code cache".length);
  });

  it("falls back to the next directory, and gives up silently when none is writable", () => {
    const blocked = join(base, `blocked-${made}`);
    writeFileSync(blocked, "a file where a directory should be");
    const fallback = join(base, `fallback-${made}`);
    const file = bundle();
    load(file, [join(blocked, "cache"), fallback]).saveCache();
    assert.equal(readdirSync(fallback).length, 1);
    assert.doesNotThrow(() => load(bundle(), [join(blocked, "cache")]).saveCache());
  });

  it("keeps apart the caches of starts with other node flags", () => {
    const file = bundle();
    const dir = join(base, `cache-${made}`);
    load(file, [dir]).saveCache();
    const saved = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = "--max-old-space-size=4096";
    try {
      load(file, [dir]).saveCache();
    } finally {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
    }
    const keys = readdirSync(dir).map((name) => name.split("-").at(-1));
    assert.equal(new Set(keys).size, 2);
  });

  it("removes the caches of another build of the same bundle", () => {
    const dir = join(base, `shared-${made}`);
    load(bundle("OLD"), [dir]).saveCache();
    load(bundle("NEW"), [dir]).saveCache();
    assert.deepEqual(
      readdirSync(dir).map((name) => name.split(".")[0]),
      ["cli-NEW"],
    );
  });
});
