import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { executionLayout } from "../execution-layout.ts";
import type { ExecutionPlan } from "./choose-execution.ts";
import type { DataHash } from "./data-hash.ts";
import { type ExecutionHost, readExecutionMeta } from "./execution-meta.ts";
import { type PrepareExecutionInput, prepareExecution } from "./prepare-execution.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "hw-prepare-")));
after(() => rmSync(root, { recursive: true, force: true }));

const NOW = Date.parse("2025-01-15T10:30:00.000Z");
const host: ExecutionHost = {
  hankweaveVersion: "0.1.0",
  invocation: ["hank.json"],
  platform: "linux",
  arch: "x64",
  runtime: "node v20",
};
const dataHash: DataHash = { hash: "a1b2c3d4".repeat(8), method: "content", files: 2, bytes: 6 };

let counter = 0;
function fresh(name: string): string {
  return join(root, `${name}-${counter++}`);
}

function dataDir(): string {
  const dir = fresh("data");
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "a.txt"), "aaa");
  writeFileSync(join(dir, "sub", "b.txt"), "bbb");
  symlinkSync("a.txt", join(dir, "alias"));
  return dir;
}

function create(dir: string, more: Partial<Extract<ExecutionPlan, { kind: "create" }>> = {}): ExecutionPlan {
  return { kind: "create", dir, backupState: false, wipeAgentRoot: false, ...more };
}

function prepareInput(plan: ExecutionPlan, dataPath: string, more: Partial<PrepareExecutionInput> = {}) {
  return {
    plan,
    dataPath,
    dataHash,
    hankPath: "/p/hank.json",
    hankHash: "h".repeat(64),
    copy: false,
    now: NOW,
    host,
    pid: process.pid,
    ...more,
  };
}

async function prepared(input: PrepareExecutionInput) {
  const result = await prepareExecution(input);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe("prepareExecution", () => {
  it("creates the layout, links the data and writes the meta", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    const result = await prepared(prepareInput(create(exec), data));
    const layout = executionLayout(exec);
    for (const dir of [
      layout.eventsDir,
      layout.runsDir,
      layout.logsDir,
      join(layout.stateDir, "checkpoints"),
      layout.agentRoot,
      layout.rigArchiveDir,
    ]) {
      assert.equal(lstatSync(dir).isDirectory(), true, dir);
    }
    assert.equal(readlinkSync(layout.dataLink), data);
    assert.equal(readFileSync(join(layout.dataLink, "sub", "b.txt"), "utf8"), "bbb");
    assert.deepEqual(result.notes, []);
    assert.equal(result.backupDir, undefined);
    assert.deepEqual(readExecutionMeta(layout.metaPath), {
      status: "ok",
      meta: {
        version: "1.1.0",
        readOnlySourceDataPath: data,
        resolvedSourceDataPath: data,
        dataHash: dataHash.hash,
        dataHashMethod: "content",
        hankPath: "/p/hank.json",
        hankHash: "h".repeat(64),
        linkType: "symlink",
        createdAt: "2025-01-15T10:30:00.000Z",
        lastUsed: "2025-01-15T10:30:00.000Z",
        hankweaveVersion: "0.1.0",
        invocation: ["hank.json"],
        platform: "linux",
        arch: "x64",
        runtime: "node v20",
      },
    });
  });

  it("copies the data with --copy, keeping links inside as links", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    const result = await prepared(prepareInput(create(exec), data, { copy: true }));
    const link = executionLayout(exec).dataLink;
    assert.equal(result.meta.linkType, "copy");
    assert.equal(lstatSync(link).isDirectory(), true);
    assert.equal(readFileSync(join(link, "sub", "b.txt"), "utf8"), "bbb");
    assert.equal(readlinkSync(join(link, "alias")), "a.txt");
  });

  it("falls back to a copy when the link cannot be made, and says so", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    const symlink = async () => {
      throw Object.assign(new Error("operation not permitted"), { code: "EPERM" });
    };
    const result = await prepared(prepareInput(create(exec), data, { symlink }));
    assert.equal(result.meta.linkType, "copy");
    assert.deepEqual(result.notes, ["Could not link the data source (EPERM); copied it instead."]);
    assert.equal(readFileSync(join(executionLayout(exec).dataLink, "a.txt"), "utf8"), "aaa");
  });

  it("links a single-file data source", async () => {
    const data = join(dataDir(), "a.txt");
    const exec = fresh("exec");
    await prepared(prepareInput(create(exec), data));
    assert.equal(readFileSync(executionLayout(exec).dataLink, "utf8"), "aaa");
  });

  it("backs up .hankweave to .hankweave.backup-<timestamp> and wipes agentRoot without touching the data", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    await prepared(prepareInput(create(exec), data));
    const layout = executionLayout(exec);
    writeFileSync(join(layout.stateDir, "marker"), "old state");
    writeFileSync(join(layout.agentRoot, "work.txt"), "agent work");
    const plan = create(exec, { backupState: true, wipeAgentRoot: true });
    const first = await prepared(prepareInput(plan, data));
    assert.equal(first.backupDir, join(exec, ".hankweave.backup-20250115T103000Z"));
    assert.equal(
      readFileSync(join(exec, ".hankweave.backup-20250115T103000Z", "marker"), "utf8"),
      "old state",
    );
    assert.equal(existsSync(join(layout.stateDir, "marker")), false);
    assert.deepEqual(readdirSync(layout.agentRoot), ["read_only_data_source"]);
    assert.equal(readFileSync(join(data, "a.txt"), "utf8"), "aaa");
    const second = await prepared(prepareInput(plan, data));
    assert.equal(second.backupDir, join(exec, ".hankweave.backup-20250115T103000Z-2"));
  });

  it("keeps agentRoot when the plan does not wipe (--no-wipe)", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    await prepared(prepareInput(create(exec), data));
    writeFileSync(join(executionLayout(exec).agentRoot, "work.txt"), "agent work");
    await prepared(prepareInput(create(exec, { backupState: true, wipeAgentRoot: false }), data));
    assert.equal(readFileSync(join(executionLayout(exec).agentRoot, "work.txt"), "utf8"), "agent work");
  });

  it("resumes: keeps createdAt and the link, updates lastUsed and the hank hash", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    const created = await prepared(prepareInput(create(exec), data));
    const later = NOW + 86_400_000;
    const plan: ExecutionPlan = {
      kind: "resume",
      dir: exec,
      meta: created.meta,
      hankChanged: true,
      dataChanged: false,
    };
    const resumed = await prepared(prepareInput(plan, data, { now: later, hankHash: "c".repeat(64) }));
    assert.equal(resumed.meta.createdAt, "2025-01-15T10:30:00.000Z");
    assert.equal(resumed.meta.lastUsed, "2025-01-16T10:30:00.000Z");
    assert.equal(resumed.meta.hankHash, "c".repeat(64));
    assert.equal(resumed.meta.linkType, "symlink");
    assert.equal(readlinkSync(executionLayout(exec).dataLink), data);
  });

  it("resumes with changed data (--force): the link follows the new data source", async () => {
    const exec = fresh("exec");
    const created = await prepared(prepareInput(create(exec), dataDir()));
    const moved = dataDir();
    const plan: ExecutionPlan = {
      kind: "resume",
      dir: exec,
      meta: created.meta,
      hankChanged: false,
      dataChanged: true,
    };
    const resumed = await prepared(prepareInput(plan, moved));
    assert.equal(readlinkSync(executionLayout(exec).dataLink), moved);
    assert.equal(resumed.meta.resolvedSourceDataPath, moved);
  });

  it("refuses an execution inside the data source (through a link) and creates nothing", async () => {
    const data = dataDir();
    const alias = fresh("alias");
    symlinkSync(data, alias);
    const exec = join(alias, "exec");
    const result = await prepareExecution(prepareInput(create(exec), data));
    assert.deepEqual(result, {
      ok: false,
      message:
        `The execution directory ${join(data, "exec")} is inside the data source ${data}. The agent would see its own ` +
        "workspace through read_only_data_source, and every run would change the data hash. Choose an execution " +
        "directory outside the data source (omit -e to use the executions base directory).",
    });
    assert.equal(existsSync(join(data, "exec")), false);
  });

  it("refuses to touch an execution that a live process holds", async () => {
    const data = dataDir();
    const exec = fresh("exec");
    await prepared(prepareInput(create(exec), data));
    const layout = executionLayout(exec);
    const holder = {
      pid: 4321,
      runId: "run-live",
      startedAt: "2025-01-15T10:00:00.000Z",
      heartbeatAt: "2025-01-15T10:29:50.000Z",
      hostname: hostname(),
    };
    writeFileSync(layout.lockPath, JSON.stringify(holder));
    const plan = create(exec, { backupState: true, wipeAgentRoot: true });
    const result = await prepareExecution(prepareInput(plan, data, { isPidAlive: (pid) => pid === 4321 }));
    assert.equal(result.ok, false);
    assert.equal(
      result.ok ? "" : result.message.split("\n")[0],
      `This execution is in use by another hankweave process: PID 4321 on ${hostname()}, run run-live, started ` +
        `2025-01-15T10:00:00.000Z, last heartbeat 10 s ago (lock: ${layout.lockPath}).`,
    );
    assert.equal(existsSync(layout.lockPath), true);
    assert.equal(existsSync(join(exec, ".hankweave.backup-20250115T103000Z")), false);
  });

  it("reports a data source that vanished", async () => {
    const missing = fresh("gone");
    const result = await prepareExecution(prepareInput(create(fresh("exec")), missing));
    assert.deepEqual(result, { ok: false, message: `Data source ${missing} cannot be read (ENOENT).` });
  });
});
