import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { FIXED_MS, listTree, type WorkspaceFixture, workspaceFixture } from "../outputs/test-support.ts";
import { type ArchiveManifestEntry, readArchiveManifest, writeArchiveManifest } from "./archive-manifest.ts";
import { type RestoreSelection, restoreArchived } from "./restore-archived.ts";
import { archiver, codon, HELLO_SHA256, loopCodon } from "./test-support.ts";

let fx: WorkspaceFixture;
beforeEach(() => {
  fx = workspaceFixture();
});
afterEach(() => fx.remove());

const RESTORED_MS = FIXED_MS + 60_000;
const restore = (selection: RestoreSelection) =>
  restoreArchived(fx.layout.archiveManifestPath, selection, fx.layout, { clock: { now: () => RESTORED_MS } });

async function entries(): Promise<ArchiveManifestEntry[]> {
  const read = await readArchiveManifest(fx.layout.archiveManifestPath);
  assert.equal(read.ok, true);
  return read.ok ? read.manifest.entries : [];
}

test("files archived after the target go back where they were; the manifest marks them restored", async () => {
  fx.write(fx.agentRoot, "current-project/history.txt", "hello");
  fx.write(fx.agentRoot, "current-project/src/main.ts", "code");
  symlinkSync("history.txt", join(fx.agentRoot, "current-project", "latest"));
  await archiver(fx).archive("build", codon("build"), ["current-project/**"]);
  assert.deepEqual(listTree(fx.agentRoot), []);
  const result = await restore({ codonId: "build", afterTimestamp: "2023-11-14T22:00:00.000Z" });
  const restoredPaths = [
    "current-project/history.txt",
    "current-project/latest",
    "current-project/src/main.ts",
  ];
  assert.deepEqual(result, {
    status: "completed",
    restoredPaths,
    failedPaths: [],
    restoredEntryIds: ["e1", "e2", "e3"],
    supersededEntryIds: [],
    event: { codonId: "build", restoredPaths, status: "completed" },
  });
  assert.deepEqual(listTree(fx.agentRoot), restoredPaths);
  assert.equal(readlinkSync(join(fx.agentRoot, "current-project", "latest")), "history.txt");
  assert.equal(existsSync(fx.layout.rigArchiveDir), true);
  assert.deepEqual(listTree(fx.layout.rigArchiveDir), []);
  const first = (await entries())[0];
  assert.deepEqual(first, {
    id: "e1",
    codonId: "build",
    runId: "run-1",
    archivedAt: "2023-11-14T22:13:20.000Z",
    from: "current-project/history.txt",
    to: "rigArchive/build/current-project/history.txt",
    kind: "file",
    sizeBytes: 5,
    sha256: HELLO_SHA256,
    restoredAt: "2023-11-14T22:14:20.000Z",
  });
  const again = await restore({ codonId: "build", afterTimestamp: "2023-11-14T22:00:00.000Z" });
  assert.deepEqual(again.event, { codonId: "build", restoredPaths: [], status: "completed" });
});

test("only entries archived strictly after the timestamp, or the listed ids, are restored", async () => {
  const a = archiver(fx);
  fx.write(fx.agentRoot, "early.txt", "1");
  await a.archive("one", codon("one"), ["early.txt"]);
  a.now = FIXED_MS + 10_000;
  fx.write(fx.agentRoot, "late.txt", "2");
  fx.write(fx.agentRoot, "other.txt", "3");
  await a.archive("two", codon("two"), ["late.txt", "other.txt"]);
  const byTime = await restore({ codonId: "one", afterTimestamp: "2023-11-14T22:13:20.000Z" });
  assert.deepEqual(byTime.restoredPaths, ["late.txt", "other.txt"]);
  assert.deepEqual(listTree(fx.agentRoot), ["late.txt", "other.txt"]);
  const byId = await restore({ codonId: "one", entryIds: ["e1"] });
  assert.deepEqual(byId.restoredPaths, ["early.txt"]);
});

test("a path archived in several iterations comes back in its oldest archived version", async () => {
  const a = archiver(fx);
  fx.write(fx.agentRoot, "current-project/history.txt", "v0");
  await a.archive("edit#0", loopCodon("revise", 0, "edit#0"), ["current-project/**"]);
  a.now = FIXED_MS + 1000;
  fx.write(fx.agentRoot, "current-project/history.txt", "v1");
  await a.archive("edit#1", loopCodon("revise", 1, "edit#1"), ["current-project/**"]);
  const result = await restore({ codonId: "edit#0", afterTimestamp: "2023-11-14T22:00:00.000Z" });
  assert.equal(result.status, "completed");
  assert.deepEqual(result.restoredEntryIds, ["e1"]);
  assert.deepEqual(result.supersededEntryIds, ["e2"]);
  assert.equal(readFileSync(join(fx.agentRoot, "current-project", "history.txt"), "utf8"), "v0");
  assert.deepEqual(listTree(fx.layout.rigArchiveDir), ["revise-1/edit-1/current-project/history.txt"]);
  assert.equal((await entries())[1]?.supersededBy, "e1");
});

test("a restore never overwrites: a path that exists again fails and the archived copy stays", async () => {
  fx.write(fx.agentRoot, "a.txt", "archived");
  await archiver(fx).archive("build", codon("build"), ["a.txt"]);
  fx.write(fx.agentRoot, "a.txt", "current");
  const result = await restore({ codonId: "build", entryIds: ["e1"] });
  assert.deepEqual(result.event, {
    codonId: "build",
    restoredPaths: [],
    failedPaths: [
      {
        path: "a.txt",
        error:
          'cannot put it back in agentRoot ("a.txt" already exists); the archived copy stays at rigArchive/build/a.txt',
      },
    ],
    status: "failed",
  });
  assert.equal(readFileSync(join(fx.agentRoot, "a.txt"), "utf8"), "current");
  assert.equal(readFileSync(join(fx.layout.rigArchiveDir, "build", "a.txt"), "utf8"), "archived");
  assert.equal((await entries())[0]?.restoredAt, undefined);
});

test("an archived copy that changed or vanished is not restored; the rest is (partial)", async () => {
  fx.write(fx.agentRoot, "a.txt", "a");
  fx.write(fx.agentRoot, "b.txt", "b");
  fx.write(fx.agentRoot, "c.txt", "c");
  await archiver(fx).archive("build", codon("build"), ["*.txt"]);
  writeFileSync(join(fx.layout.rigArchiveDir, "build", "a.txt"), "tampered");
  unlinkSync(join(fx.layout.rigArchiveDir, "build", "b.txt"));
  const result = await restore({ codonId: "build", afterTimestamp: "2000-01-01T00:00:00Z" });
  assert.equal(result.status, "partial");
  assert.deepEqual(result.restoredPaths, ["c.txt"]);
  assert.deepEqual(result.failedPaths, [
    {
      path: "a.txt",
      error: "the archived copy rigArchive/build/a.txt changed since it was archived (SHA-256 differs)",
    },
    { path: "b.txt", error: "the archived copy rigArchive/build/b.txt is missing" },
  ]);
  assert.deepEqual(listTree(fx.agentRoot), ["c.txt"]);
});

test("attack: manifest entries targeting .hankweave or leaving their roots are refused", async () => {
  fx.write(fx.layout.rigArchiveDir, "x/state.json", "hello");
  const forged = (id: string, from: string, to: string): ArchiveManifestEntry => ({
    id,
    codonId: "x",
    runId: "run-1",
    archivedAt: "2023-11-14T22:13:20.000Z",
    from,
    to,
    kind: "file",
    sizeBytes: 5,
    sha256: HELLO_SHA256,
  });
  writeFileSync(join(fx.layout.stateDir, "state.json"), "real state");
  await writeArchiveManifest(fx.layout.archiveManifestPath, {
    version: 1,
    entries: [
      forged("f1", "../.hankweave/state.json", "rigArchive/x/state.json"),
      forged("f2", ".hankweave/state.json", "rigArchive/x/state.json"),
      forged("f3", "ok.txt", ".hankweave/state.json"),
      forged("f4", "ok2.txt", "rigArchive/../.hankweave/state.json"),
      forged("f5", "read_only_data_source/a.csv", "rigArchive/x/state.json"),
    ],
  });
  const result = await restore({ codonId: "x", afterTimestamp: "2000-01-01T00:00:00Z" });
  assert.equal(result.status, "failed");
  assert.deepEqual(
    result.failedPaths.map((f) => f.error),
    [
      'refusing to restore to "../.hankweave/state.json": "../.hankweave/state.json" contains a ".." segment; workspace paths may not leave agentRoot',
      'refusing to restore to ".hankweave/state.json": ".hankweave/state.json" names ".hankweave", which hankweave never checkpoints, copies out or archives',
      'refusing to restore from ".hankweave/state.json": ".hankweave/state.json" names ".hankweave", which hankweave never checkpoints, copies out or archives',
      'refusing to restore from "rigArchive/../.hankweave/state.json": "rigArchive/../.hankweave/state.json" contains a ".." segment; workspace paths may not leave agentRoot',
      'refusing to restore to "read_only_data_source/a.csv": it is inside the read-only data link',
    ],
  );
  assert.equal(readFileSync(join(fx.layout.stateDir, "state.json"), "utf8"), "real state");
  assert.deepEqual(listTree(fx.agentRoot), []);
});

test("attack: a link planted in agentRoot on the way back is never written through", async () => {
  fx.write(fx.agentRoot, "docs/a.md", "hello");
  await archiver(fx).archive("build", codon("build"), ["docs/**"]);
  symlinkSync(fx.outside, join(fx.agentRoot, "docs"));
  const result = await restore({ codonId: "build", entryIds: ["e1"] });
  assert.deepEqual(result.failedPaths, [
    {
      path: "docs/a.md",
      error:
        'cannot put it back in agentRoot ("docs" is a symbolic link; refusing to write through it); the archived copy stays at rigArchive/build/docs/a.md',
    },
  ]);
  assert.deepEqual(listTree(fx.outside), []);
});

test("attack: an archived copy reached through a planted link is not taken", async () => {
  fx.write(fx.agentRoot, "a.txt", "hello");
  await archiver(fx).archive("build", codon("build"), ["a.txt"]);
  const moved = join(fx.root, "elsewhere");
  mkdirSync(moved);
  renameSync(join(fx.layout.rigArchiveDir, "build"), join(moved, "build"));
  symlinkSync(join(moved, "build"), join(fx.layout.rigArchiveDir, "build"));
  const result = await restore({ codonId: "build", entryIds: ["e1"] });
  assert.deepEqual(result.failedPaths, [
    {
      path: "a.txt",
      error:
        'the archived copy rigArchive/build/a.txt cannot be reached: "rigArchive/build" is a symbolic link; refusing to write through it',
    },
  ]);
  assert.equal(existsSync(join(moved, "build", "a.txt")), true);
});

test("an unreadable manifest fails the restore; a bad timestamp is a bug", async () => {
  writeFileSync(fx.layout.archiveManifestPath, JSON.stringify({ version: 2, entries: [] }));
  const result = await restore({ codonId: "build", afterTimestamp: "2000-01-01T00:00:00Z" });
  assert.equal(result.status, "failed");
  assert.deepEqual(result.failedPaths, [
    {
      path: ".hankweave/archive-manifest.json",
      error: `the archive manifest ${fx.layout.archiveManifestPath} is invalid at version: Invalid input: expected 1`,
    },
  ]);
  writeFileSync(fx.layout.archiveManifestPath, JSON.stringify({ version: 1, entries: [] }));
  await assert.rejects(restore({ codonId: "b", afterTimestamp: "yesterday" }), RangeError);
});
