import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { listTree, type WorkspaceFixture, workspaceFixture } from "../outputs/test-support.ts";
import { readArchiveManifest } from "./archive-manifest.ts";
import { archiver, codon, HELLO_SHA256, loopCodon } from "./test-support.ts";

let fx: WorkspaceFixture;
beforeEach(() => {
  fx = workspaceFixture();
});
afterEach(() => fx.remove());

const manifestText = () => JSON.parse(readFileSync(fx.layout.archiveManifestPath, "utf8"));

test("a codon outside loops: files move to rigArchive/<codonId>/, emptied directories go, the manifest records it", async () => {
  fx.write(fx.agentRoot, "scratch/a.txt", "hello");
  fx.write(fx.agentRoot, "scratch/deep/b.txt", "");
  fx.write(fx.agentRoot, "keep.md", "k");
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), ["scratch/**"]);
  assert.deepEqual(result.archivedPaths, ["scratch/a.txt", "scratch/deep/b.txt"]);
  assert.equal(result.status, "completed");
  assert.equal(result.archiveDir, "rigArchive/build");
  assert.deepEqual(listTree(fx.agentRoot), ["keep.md"]);
  assert.deepEqual(listTree(fx.layout.rigArchiveDir), ["build/scratch/a.txt", "build/scratch/deep/b.txt"]);
  assert.deepEqual(a.events.slice(-2), [
    { type: "info", data: { message: "Archived 2 files for codon 'build' to rigArchive/build/" } },
    {
      type: "archive.completed",
      data: { codonId: "build", archivedPaths: ["scratch/a.txt", "scratch/deep/b.txt"] },
    },
  ]);
  assert.deepEqual(manifestText(), {
    version: 1,
    entries: [
      {
        id: "e1",
        codonId: "build",
        runId: "run-1",
        archivedAt: "2023-11-14T22:13:20.000Z",
        from: "scratch/a.txt",
        to: "rigArchive/build/scratch/a.txt",
        kind: "file",
        sizeBytes: 5,
        sha256: HELLO_SHA256,
      },
      {
        id: "e2",
        codonId: "build",
        runId: "run-1",
        archivedAt: "2023-11-14T22:13:20.000Z",
        from: "scratch/deep/b.txt",
        to: "rigArchive/build/scratch/deep/b.txt",
        kind: "file",
        sizeBytes: 0,
        sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
    ],
  });
});

test("a codon inside a loop: rigArchive/<loopId>-<iteration>/<runtimeId with - for #>/", async () => {
  const a = archiver(fx);
  fx.write(fx.agentRoot, "current-project/history.txt", "v0");
  await a.archive("edit#0", loopCodon("revise", 0, "edit#0"), ["current-project/**"]);
  fx.write(fx.agentRoot, "current-project/history.txt", "v1");
  await a.archive("edit#1", loopCodon("revise", 1, "edit#1"), ["current-project/**"]);
  assert.deepEqual(listTree(fx.layout.executionDir, "rigArchive"), [
    "rigArchive/revise-0/edit-0/current-project/history.txt",
    "rigArchive/revise-1/edit-1/current-project/history.txt",
  ]);
  assert.equal(
    readFileSync(join(fx.layout.rigArchiveDir, "revise-1/edit-1/current-project/history.txt"), "utf8"),
    "v1",
  );
  assert.deepEqual(
    a.events.filter((e) => e.type === "archive.completed").map((e) => e.data),
    [
      { codonId: "edit#0", archivedPaths: ["current-project/history.txt"] },
      { codonId: "edit#1", archivedPaths: ["current-project/history.txt"] },
    ],
  );
});

test("a loop's own archive goes to rigArchive/<loopId>-loop/ and is announced with the loop id", async () => {
  fx.write(fx.agentRoot, "drafts/one.md", "");
  const a = archiver(fx);
  await a.archive("revise", { kind: "loop", loopId: "revise" }, ["drafts/*.md"]);
  assert.deepEqual(listTree(fx.layout.rigArchiveDir), ["revise-loop/drafts/one.md"]);
  assert.deepEqual(a.infos(), ["Archived 1 file for loop 'revise' to rigArchive/revise-loop/"]);
});

test("partial: what can move moves, the rest is reported with archive.partial", async () => {
  fx.write(fx.agentRoot, "notes.md", "n");
  fx.write(fx.agentRoot, "tmp/a.txt", "a");
  fx.write(fx.layout.rigArchiveDir, "build/tmp", "a file where a directory is needed");
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), ["notes.md", "tmp/**", "../escape"]);
  assert.equal(result.status, "partial");
  const failedPaths = [
    {
      path: "../escape",
      error: '"../escape" contains a ".." segment; workspace paths may not leave agentRoot',
    },
    { path: "tmp/a.txt", error: '"tmp" exists and is not a directory' },
  ];
  assert.deepEqual(a.events.at(-1), {
    type: "archive.partial",
    data: { codonId: "build", archivedPaths: ["notes.md"], failedPaths },
  });
  assert.equal(a.infos().at(-1), "Archived 1 file for codon 'build' to rigArchive/build/ (2 failed)");
  assert.equal(readFileSync(join(fx.agentRoot, "tmp", "a.txt"), "utf8"), "a");
  assert.deepEqual(
    manifestText().entries.map((e: { from: string }) => e.from),
    ["notes.md"],
  );
});

test("a taken archive name is renamed, and links move as links", async () => {
  fx.write(fx.layout.rigArchiveDir, "build/notes.md", "older");
  fx.write(fx.agentRoot, "notes.md", "newer");
  symlinkSync("notes.md", join(fx.agentRoot, "latest"));
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), ["notes.md", "latest"]);
  assert.deepEqual(
    result.entries.map((e) => [e.from, e.to, e.kind]),
    [
      ["latest", "rigArchive/build/latest", "symlink"],
      ["notes.md", "rigArchive/build/notes_1_1700000000.md", "file"],
    ],
  );
  assert.equal(readlinkSync(join(fx.layout.rigArchiveDir, "build", "latest")), "notes.md");
  assert.equal(readFileSync(join(fx.layout.rigArchiveDir, "build", "notes.md"), "utf8"), "older");
});

test("attack: .hankweave and the data link are never archived, not even when named", async () => {
  fx.write(fx.agentRoot, ".hankweave/state.json", "{}");
  symlinkSync(fx.outside, join(fx.agentRoot, "read_only_data_source"));
  fx.write(fx.agentRoot, "work.txt", "w");
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), [".hankweave/**", "read_only_data_source", "**"]);
  assert.deepEqual(result.archivedPaths, ["work.txt"]);
  assert.deepEqual(result.unmatchedGlobs, ["read_only_data_source"]);
  // Naming .hankweave is refused as a glob before any scan.
  assert.deepEqual(
    result.failedPaths.map((f) => f.path),
    [".hankweave/**"],
  );
  assert.equal(existsSync(join(fx.agentRoot, ".hankweave", "state.json")), true);
  assert.equal(readlinkSync(join(fx.agentRoot, "read_only_data_source")), fx.outside);
});

test("attack: a codon id naming the state directory stays a single name inside rigArchive", async () => {
  fx.write(fx.agentRoot, "x.txt", "");
  const a = archiver(fx);
  const result = await a.archive("../.hankweave", codon("../.hankweave"), ["x.txt"]);
  assert.deepEqual(
    result.entries.map((e) => e.to),
    ["rigArchive/.._.hankweave/x.txt"],
  );
  assert.deepEqual(listTree(fx.layout.stateDir), ["archive-manifest.json"]);
});

test("attack: a planted rigArchive link blocks the archive; nothing moves out of agentRoot", async () => {
  symlinkSync(fx.outside, fx.layout.rigArchiveDir);
  fx.write(fx.agentRoot, "a.txt", "a");
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), ["a.txt"]);
  assert.deepEqual(result.failedPaths, [
    {
      path: "a.txt",
      error:
        'the archive directory rigArchive/build is unusable: "rigArchive" is a symbolic link; refusing to write through it',
    },
  ]);
  assert.deepEqual(listTree(fx.outside), []);
  assert.equal(existsSync(join(fx.agentRoot, "a.txt")), true);
});

test("an unreadable manifest blocks moving, so nothing is archived without a record", async () => {
  writeFileSync(fx.layout.archiveManifestPath, "{ torn");
  fx.write(fx.agentRoot, "a.txt", "a");
  const result = await archiver(fx).archive("build", codon("build"), ["a.txt"]);
  assert.equal(result.status, "partial");
  assert.deepEqual(result.archivedPaths, []);
  assert.equal(
    result.failedPaths[0]?.error,
    `the archive manifest ${fx.layout.archiveManifestPath} is not valid JSON`,
  );
  assert.equal(existsSync(join(fx.agentRoot, "a.txt")), true);
});

test("no match: archive.completed with nothing, no directory, no manifest", async () => {
  mkdirSync(join(fx.agentRoot, "empty"));
  const a = archiver(fx);
  const result = await a.archive("build", codon("build"), ["*.log"]);
  assert.deepEqual(result.archivedPaths, []);
  assert.deepEqual(a.events, [
    { type: "info", data: { message: 'Archive pattern "*.log" matched no files in agentRoot' } },
    { type: "info", data: { message: "Archived 0 files for codon 'build' to rigArchive/build/" } },
    { type: "archive.completed", data: { codonId: "build", archivedPaths: [] } },
  ]);
  assert.equal(existsSync(fx.layout.rigArchiveDir), false);
  assert.deepEqual(await readArchiveManifest(fx.layout.archiveManifestPath), {
    ok: true,
    manifest: { version: 1, entries: [] },
  });
});
