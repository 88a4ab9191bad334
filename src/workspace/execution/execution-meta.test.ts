import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  buildExecutionMeta,
  type ExecutionHost,
  type ExecutionMeta,
  parseExecutionMeta,
  readExecutionMeta,
  writeExecutionMeta,
} from "./execution-meta.ts";

const root = mkdtempSync(join(tmpdir(), "hw-meta-"));
after(() => rmSync(root, { recursive: true, force: true }));

const host: ExecutionHost = {
  hankweaveVersion: "0.1.0",
  invocation: ["hank.json", "data"],
  platform: "linux",
  arch: "x64",
  runtime: "node v20.20.2",
};

const facts = {
  dataPath: "data",
  resolvedDataPath: "/work/data",
  dataHash: "d".repeat(64),
  dataHashMethod: "content" as const,
  hankPath: "/work/hank.json",
  hankHash: "h".repeat(64),
  linkType: "symlink" as const,
  host,
  now: "2025-01-15T10:30:00.000Z",
};

const expected: ExecutionMeta = {
  version: "1.1.0",
  readOnlySourceDataPath: "data",
  resolvedSourceDataPath: "/work/data",
  dataHash: "d".repeat(64),
  dataHashMethod: "content",
  hankPath: "/work/hank.json",
  hankHash: "h".repeat(64),
  linkType: "symlink",
  createdAt: "2025-01-15T10:30:00.000Z",
  lastUsed: "2025-01-15T10:30:00.000Z",
  hankweaveVersion: "0.1.0",
  invocation: ["hank.json", "data"],
  platform: "linux",
  arch: "x64",
  runtime: "node v20.20.2",
};

describe("execution-meta.json", () => {
  it("builds a new meta with every reference field", () => {
    assert.deepEqual(buildExecutionMeta(facts), expected);
  });

  it("keeps createdAt of the meta being resumed and moves lastUsed", () => {
    const resumed = buildExecutionMeta({ ...facts, now: "2025-02-01T00:00:00.000Z", previous: expected });
    assert.equal(resumed.createdAt, "2025-01-15T10:30:00.000Z");
    assert.equal(resumed.lastUsed, "2025-02-01T00:00:00.000Z");
  });

  it("round-trips through an atomic write and leaves no temp file", () => {
    const dir = mkdtempSync(join(root, "rt-"));
    const path = join(dir, "execution-meta.json");
    writeExecutionMeta(path, expected, 4242);
    writeExecutionMeta(path, { ...expected, lastUsed: "2025-03-01T00:00:00.000Z" }, 4242);
    assert.deepEqual(readExecutionMeta(path), {
      status: "ok",
      meta: { ...expected, lastUsed: "2025-03-01T00:00:00.000Z" },
    });
    assert.deepEqual(readdirSync(dir), ["execution-meta.json"]);
    assert.equal(readFileSync(path, "utf8").endsWith("}\n"), true);
  });

  it("reports a missing file, bad JSON and a malformed field distinctly", () => {
    assert.deepEqual(readExecutionMeta(join(root, "nope.json")), { status: "missing" });
    assert.deepEqual(parseExecutionMeta("{"), {
      status: "invalid",
      message: "execution-meta.json is not valid JSON",
    });
    const bad = JSON.stringify({ ...expected, linkType: "hardlink" });
    assert.deepEqual(parseExecutionMeta(bad), {
      status: "invalid",
      message:
        'execution-meta.json is malformed at linkType: Invalid option: expected one of "symlink"|"copy"',
    });
  });

  it("reads a meta without the optional hankHash and dataHashMethod", () => {
    const { hankHash: _h, dataHashMethod: _m, ...older } = expected;
    const path = join(root, "older.json");
    writeFileSync(path, JSON.stringify(older));
    assert.deepEqual(readExecutionMeta(path), { status: "ok", meta: older });
  });
});
