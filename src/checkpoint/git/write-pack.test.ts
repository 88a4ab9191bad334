import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { commitBody } from "./commit-object.ts";
import { loosePath, objectId, writeObject } from "./loose-objects.ts";
import { packLooseObjects } from "./pack-loose-objects.ts";
import { writePack } from "./write-pack.ts";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const AUTHOR = { identity: { name: "t", email: "t@example.invalid" }, now: 1_764_000_000_000 };

function git(gitDir: string, args: string[], input?: string): string {
  return execFileSync("git", ["--git-dir", gitDir, ...args], {
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    ...(input === undefined ? {} : { input }),
  });
}

/** The store's loose object files, as `objects/<2 hex>/<38 hex>`. */
function looseFiles(gitDir: string): string[] {
  const objects = join(gitDir, "objects");
  return readdirSync(objects)
    .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
    .flatMap((dir) => readdirSync(join(objects, dir)).map((name) => `${dir}${name}`));
}

function packNames(gitDir: string): string[] {
  return readdirSync(join(gitDir, "objects", "pack")).sort();
}

describe("writePack and packLooseObjects", () => {
  let gitDir: string;
  beforeEach(() => {
    gitDir = mkdtempSync(join(tmpdir(), "hankweave-pack-"));
    git(gitDir, ["init", "-q", "--bare"]);
  });
  afterEach(() => rmSync(gitDir, { recursive: true, force: true }));

  it("writes a pack and index git verifies, with sizes that need one to four header bytes", () => {
    const bodies = [
      Buffer.from("short\n"),
      Buffer.from("x".repeat(100)),
      Buffer.from("y".repeat(5000)),
      Buffer.from(
        Array.from({ length: 40_000 }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 90))).join(""),
      ),
      Buffer.alloc(3_000_000, 7),
    ];
    const entries = bodies.map((body) => ({ id: objectId("blob", body), type: "blob" as const, body }));
    const name = writePack(join(gitDir, "objects", "pack"), entries);
    assert.deepEqual(packNames(gitDir), [`${name}.idx`, `${name}.pack`]);
    const verified = git(gitDir, ["verify-pack", "-v", join(gitDir, "objects", "pack", `${name}.idx`)]);
    assert.match(verified, /non delta: 5 objects/);
    for (const [i, entry] of entries.entries()) {
      assert.equal(git(gitDir, ["cat-file", "-s", entry.id]).trim(), String(bodies[i]?.length));
    }
    assert.equal(git(gitDir, ["cat-file", "-p", entries[0]?.id ?? ""]), "short\n");
  });

  it("packs a store's loose objects, ours and git's, and removes the loose files", () => {
    const blob = writeObject(gitDir, "blob", Buffer.from("line\n")).id;
    const tree = git(gitDir, ["mktree"], `100644 blob ${blob}\tfile.txt\n`).trim();
    let tip = writeObject(gitDir, "commit", commitBody(tree, undefined, AUTHOR, "first\n")).id;
    for (let i = 0; i < 50; i++) {
      tip = writeObject(gitDir, "commit", commitBody(tree, tip, AUTHOR, `step ${i}\n`)).id;
    }
    git(gitDir, ["update-ref", "refs/heads/main", tip]);
    const before = looseFiles(gitDir);
    assert.equal(packLooseObjects(gitDir), before.length);
    assert.deepEqual(looseFiles(gitDir), []);
    assert.equal(git(gitDir, ["fsck", "--full", "--strict", "--no-dangling"]), "");
    assert.equal(git(gitDir, ["rev-list", "--count", "main"]).trim(), "51");
    assert.equal(git(gitDir, ["cat-file", "-p", `main:file.txt`]), "line\n");
    assert.equal(packLooseObjects(gitDir), 0, "nothing loose is nothing to do");
  });

  it("leaves blobs worth git's delta search to git, and changes nothing", () => {
    // A file appended to at every codon: random lines (they do not compress), one more each time.
    const lines = Array.from({ length: 80 }, () => `${randomBytes(32).toString("hex")}\n`);
    for (let i = 0; i < 40; i++) writeObject(gitDir, "blob", Buffer.from(lines.slice(0, 40 + i).join("")));
    const before = looseFiles(gitDir);
    assert.equal(packLooseObjects(gitDir), undefined);
    assert.deepEqual(looseFiles(gitDir), before);
    assert.deepEqual(packNames(gitDir), []);
  });

  it("leaves a loose file that is not the object its name says, for git to report", () => {
    const good = writeObject(gitDir, "blob", Buffer.from("good\n")).id;
    const forged = writeObject(gitDir, "blob", Buffer.from("forged\n")).id;
    // The forged name now holds another object's bytes.
    rmSync(loosePath(gitDir, forged), { force: true });
    writeFileSync(loosePath(gitDir, forged), execFileSync("cat", [loosePath(gitDir, good)]));
    assert.equal(packLooseObjects(gitDir), undefined);
    assert.ok(existsSync(loosePath(gitDir, good)) && existsSync(loosePath(gitDir, forged)));
    assert.deepEqual(packNames(gitDir), []);
  });

  it("leaves the store to git's geometric repack once it holds many packs", () => {
    for (let i = 0; i < 16; i++) {
      writeObject(gitDir, "commit", commitBody(EMPTY_TREE, undefined, AUTHOR, `pack ${i}\n`));
      assert.equal(packLooseObjects(gitDir), 1);
    }
    writeObject(gitDir, "commit", commitBody(EMPTY_TREE, undefined, AUTHOR, "one more\n"));
    assert.equal(packLooseObjects(gitDir), undefined);
    assert.equal(looseFiles(gitDir).length, 1);
  });
});
