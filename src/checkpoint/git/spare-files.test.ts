import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loosePath, writeObject } from "./loose-objects.ts";
import { SPARE_FILES_DIR, SpareFiles } from "./spare-files.ts";

/** Turns the event loop until `ready` holds (spares arrive in thread-pool callbacks), at most 2 s. */
async function until(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for spare files");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Spare files (`f-*`) or directories (`d-*`) on disk. */
function sparesOnDisk(gitDir: string, kind: "f" | "d" = "f"): string[] {
  return readdirSync(join(gitDir, SPARE_FILES_DIR)).filter((name) => name.startsWith(`${kind}-`));
}

/** What git reads back for an object: type and content. */
function catFile(gitDir: string, id: string): { type: string; body: string } {
  const run = (args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8" });
  return { type: run(["cat-file", "-t", id]).trim(), body: run(["cat-file", "-p", id]) };
}

describe("SpareFiles", () => {
  let gitDir: string;
  let spares: SpareFiles;
  beforeEach(() => {
    gitDir = mkdtempSync(join(tmpdir(), "hankweave-spares-"));
    execFileSync("git", ["init", "-q", "--bare", gitDir]);
    spares = new SpareFiles(gitDir);
  });
  afterEach(async () => {
    await spares.stop();
    rmSync(gitDir, { recursive: true, force: true });
  });

  it("makes spares in the background, and objects written into them read back through git", async () => {
    spares.start();
    await until(() => sparesOnDisk(gitDir).length >= 6);
    const blob = writeObject(gitDir, "blob", Buffer.from("hello\n"), { spares });
    assert.equal(blob.written, true);
    assert.deepEqual(catFile(gitDir, blob.id), { type: "blob", body: "hello\n" });
    assert.equal(statSync(loosePath(gitDir, blob.id)).mode & 0o777, 0o444, "git's mode for objects");
    const names = readdirSync(join(gitDir, "objects", blob.id.slice(0, 2)));
    assert.deepEqual(names, [blob.id.slice(2)], "no temporary file left beside the object");
  });

  it("writes again an object that is already there without taking a spare", async () => {
    spares.start();
    await until(() => sparesOnDisk(gitDir).length >= 6);
    const first = writeObject(gitDir, "blob", Buffer.from("same\n"), { spares });
    await until(() => sparesOnDisk(gitDir).length >= 16);
    const again = writeObject(gitDir, "blob", Buffer.from("same\n"), { spares });
    assert.deepEqual(again, { id: first.id, written: false });
    assert.equal(sparesOnDisk(gitDir).length, 16);
  });

  it("creates the object's directory when it is missing", async () => {
    spares.start();
    await until(() => sparesOnDisk(gitDir).length >= 6);
    const body = Buffer.from("in a new directory\n");
    const id = writeObject(gitDir, "blob", body, { spares }).id;
    rmSync(join(gitDir, "objects", id.slice(0, 2)), { recursive: true });
    assert.equal(writeObject(gitDir, "blob", body, { spares }).written, true);
    assert.equal(catFile(gitDir, id).body, "in a new directory\n");
  });

  it("falls back to creating the file when the spares were removed under it", async () => {
    spares.start();
    await until(() => sparesOnDisk(gitDir).length >= 6);
    for (const name of sparesOnDisk(gitDir)) rmSync(join(gitDir, SPARE_FILES_DIR, name));
    const written = writeObject(
      gitDir,
      "commit",
      Buffer.from(`tree ${"4b825dc642cb6eb9a060e54bf8d69288fbee4904"}\n\nm\n`),
      {
        spares,
      },
    );
    assert.equal(written.written, true);
    assert.equal(catFile(gitDir, written.id).type, "commit");
  });

  it("provides a missing object directory by renaming a spare one into place", async () => {
    spares.start();
    await until(() => sparesOnDisk(gitDir).length >= 16 && sparesOnDisk(gitDir, "d").length >= 8);
    const spareInodes = new Set(
      sparesOnDisk(gitDir, "d").map((name) => statSync(join(gitDir, SPARE_FILES_DIR, name)).ino),
    );
    const id = writeObject(gitDir, "blob", Buffer.from("first of its directory\n"), { spares }).id;
    assert.ok(spareInodes.has(statSync(join(gitDir, "objects", id.slice(0, 2))).ino), "a spare became it");
    // Its replacement is being made in the background meanwhile.
    await until(() => sparesOnDisk(gitDir, "d").length >= 8);
  });

  it("removes leftovers of a killed process at start, and its own spares at stop", async () => {
    mkdirSync(join(gitDir, SPARE_FILES_DIR, "d-4242-8"), { recursive: true });
    writeFileSync(join(gitDir, SPARE_FILES_DIR, "f-4242-7"), "half an object");
    spares.start();
    assert.equal(existsSync(join(gitDir, SPARE_FILES_DIR, "f-4242-7")), false);
    assert.equal(existsSync(join(gitDir, SPARE_FILES_DIR, "d-4242-8")), false);
    await until(() => sparesOnDisk(gitDir).length >= 16 && sparesOnDisk(gitDir, "d").length >= 8);
    await spares.stop();
    assert.deepEqual(readdirSync(join(gitDir, SPARE_FILES_DIR)), []);
    assert.equal(spares.take(), undefined, "a stopped pool has nothing to give");
  });

  it("stops only once the creations still running have arrived and been removed", async () => {
    spares.start();
    // Creations are in flight: their callbacks cannot have run before this line.
    await spares.stop();
    assert.deepEqual(readdirSync(join(gitDir, SPARE_FILES_DIR)), [], "nothing arrives after the stop");
    rmSync(gitDir, { recursive: true });
    assert.equal(existsSync(gitDir), false, "the store can be removed as soon as the stop settles");
    mkdirSync(gitDir);
  });
});
