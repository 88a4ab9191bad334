import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { executionLayout } from "../execution-layout.ts";
import { executionBaseDir } from "./execution-base-dir.ts";
import { type ExecutionMeta, writeExecutionMeta } from "./execution-meta.ts";
import { compactTimestamp, newExecutionDirName, randomSuffix, stateBackupName } from "./execution-names.ts";
import { canonicalPath, inspectExecutionTarget, listExecutions } from "./survey-executions.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "hw-survey-")));
after(() => rmSync(root, { recursive: true, force: true }));

const meta: ExecutionMeta = {
  version: "1.1.0",
  readOnlySourceDataPath: "d",
  resolvedSourceDataPath: "/d",
  dataHash: "a".repeat(64),
  hankPath: "/h.json",
  linkType: "symlink",
  createdAt: "2025-01-01T00:00:00.000Z",
  lastUsed: "2025-01-01T00:00:00.000Z",
  hankweaveVersion: "0.1.0",
  invocation: [],
  platform: "linux",
  arch: "x64",
  runtime: "node v20",
};

describe("listExecutions", () => {
  it("finds executions by their meta and reports unusable state", () => {
    const base = join(root, "base");
    const good = join(base, "good");
    mkdirSync(executionLayout(good).stateDir, { recursive: true });
    writeExecutionMeta(executionLayout(good).metaPath, meta, 1);
    const noMeta = join(base, "no-meta");
    mkdirSync(executionLayout(noMeta).stateDir, { recursive: true });
    const broken = join(base, "broken");
    mkdirSync(executionLayout(broken).stateDir, { recursive: true });
    writeFileSync(executionLayout(broken).metaPath, "{");
    mkdirSync(join(base, "plain-dir"));
    writeFileSync(join(base, "stray-file.txt"), "x");
    assert.deepEqual(listExecutions(base), {
      executions: [{ dir: good, meta }],
      skipped: [
        `${broken}: execution-meta.json is not valid JSON`,
        `${noMeta}: execution-meta.json is missing`,
      ],
    });
  });

  it("treats a missing base directory as holding no executions", () => {
    assert.deepEqual(listExecutions(join(root, "absent")), { executions: [], skipped: [] });
  });
});

describe("inspectExecutionTarget", () => {
  it("describes absent, file, empty and stateful directories", () => {
    const base = join(root, "ibase");
    mkdirSync(base);
    const absent = join(root, "nothing-here");
    assert.deepEqual(inspectExecutionTarget(absent, base), {
      ok: true,
      facts: {
        path: absent,
        kind: "absent",
        isBaseDir: false,
        entryCount: 0,
        hasStateDir: false,
        meta: { status: "missing" },
      },
    });
    const file = join(root, "file.txt");
    writeFileSync(file, "x");
    const fileFacts = inspectExecutionTarget(file, base);
    assert.equal(fileFacts.ok && fileFacts.facts.kind, "other");
    const exec = join(root, "exec");
    mkdirSync(executionLayout(exec).stateDir, { recursive: true });
    writeExecutionMeta(executionLayout(exec).metaPath, meta, 1);
    writeFileSync(join(exec, "notes.txt"), "x");
    assert.deepEqual(inspectExecutionTarget(exec, base), {
      ok: true,
      facts: {
        path: exec,
        kind: "directory",
        isBaseDir: false,
        entryCount: 2,
        hasStateDir: true,
        meta: { status: "ok", meta },
      },
    });
  });

  it("tells a layout a killed start left (directories, an unrenamed meta) from a state that holds records", () => {
    const recordsNothing = (dir: string): boolean | undefined => {
      const facts = inspectExecutionTarget(dir, root);
      return facts.ok ? facts.facts.stateRecordsNothing : undefined;
    };
    const cut = executionLayout(join(root, "cut"));
    for (const dir of [cut.eventsDir, cut.runsDir, cut.logsDir, cut.agentRoot])
      mkdirSync(dir, { recursive: true });
    assert.equal(recordsNothing(cut.executionDir), true, "directories only");
    writeFileSync(join(cut.stateDir, ".execution-meta.json.8740.tmp"), '{"version": "1.1');
    assert.equal(recordsNothing(cut.executionDir), true, "and the meta's temporary file, cut mid-write");
    writeFileSync(join(cut.eventsDir, ".execution-meta.json.8740.tmp"), "x");
    assert.equal(recordsNothing(cut.executionDir), false, "such a name elsewhere is a record");
    rmSync(join(cut.eventsDir, ".execution-meta.json.8740.tmp"));
    for (const record of [cut.eventsPath, cut.statePath, cut.lockPath]) {
      writeFileSync(record, "");
      assert.equal(recordsNothing(cut.executionDir), false, record);
      rmSync(record);
    }
    writeExecutionMeta(cut.metaPath, meta, 1);
    assert.equal(recordsNothing(cut.executionDir), undefined, "not looked at when the meta is there");
  });

  it("recognizes the base directory through a link and a trailing slash", () => {
    const base = join(root, "real-base");
    mkdirSync(base);
    const alias = join(root, "alias-base");
    symlinkSync(base, alias);
    const facts = inspectExecutionTarget(`${alias}/`, base);
    assert.equal(facts.ok && facts.facts.isBaseDir, true);
  });

  it("returns a failure value for a path below a file", () => {
    const file = join(root, "plain.txt");
    writeFileSync(file, "x");
    assert.deepEqual(inspectExecutionTarget(join(file, "sub"), root), {
      ok: false,
      message: `Cannot use -e ${join(file, "sub")}: ENOTDIR.`,
    });
  });

  it("canonicalizes paths that do not exist yet through their existing ancestor", () => {
    const real = join(root, "canon-real");
    mkdirSync(real);
    symlinkSync(real, join(root, "canon-link"));
    assert.equal(canonicalPath(join(root, "canon-link", "new", "deeper")), join(real, "new", "deeper"));
  });
});

describe("executionBaseDir", () => {
  const sources = { env: {}, homeDir: "/home/u", cwd: "/work" };
  it("defaults to ~/.hankweave-executions", () => {
    assert.equal(executionBaseDir(sources), "/home/u/.hankweave-executions");
  });
  it("prefers HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR over the configured value", () => {
    const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: "/srv/runs" };
    assert.equal(executionBaseDir({ ...sources, env, configured: "/cfg" }), "/srv/runs");
    assert.equal(executionBaseDir({ ...sources, configured: "cfg/runs" }), "/work/cfg/runs");
  });
  it("expands ~ and ignores empty values", () => {
    assert.equal(
      executionBaseDir({ ...sources, env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: "~/x" } }),
      "/home/u/x",
    );
    assert.equal(
      executionBaseDir({ ...sources, env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: " " } }),
      "/home/u/.hankweave-executions",
    );
  });
});

describe("execution names", () => {
  const at = Date.parse("2025-01-15T10:30:05.123Z");
  it("formats timestamps, new directory names and backup names", () => {
    assert.equal(compactTimestamp(at), "20250115T103005Z");
    assert.equal(newExecutionDirName(at, "k3x9q2", "a1b2c3d4e5f6"), "20250115T103005Z-k3x9q2-a1b2c3d4");
    assert.equal(stateBackupName(at), ".hankweave.backup-20250115T103005Z");
    assert.equal(stateBackupName(at, 2), ".hankweave.backup-20250115T103005Z-2");
  });
  it("draws six base-36 characters", () => {
    assert.match(randomSuffix(), /^[0-9a-z]{6}$/);
  });
});
