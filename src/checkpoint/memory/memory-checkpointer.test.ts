import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { runCheckpointerConformance } from "../../testing/checkpoint-conformance/index.ts";
import type { Checkpointer, CommitInput } from "../checkpointer.ts";
import { createGitCheckpointer } from "../git/git-checkpointer.ts";
import { createMemoryCheckpointer } from "./memory-checkpointer.ts";
import { createMemoryCheckpointStore, type MemoryCheckpointStore } from "./memory-store.ts";

// A reopened checkpointer (the suite's `open()`) must see the same history: one store per state dir.
const stores = new Map<string, MemoryCheckpointStore>();
runCheckpointerConformance("memory", (dirs) => {
  const store = stores.get(dirs.stateDir) ?? createMemoryCheckpointStore();
  stores.set(dirs.stateDir, store);
  return createMemoryCheckpointer({ workTree: dirs.workTree, clock: dirs.clock, store });
});

const clock = { now: () => Date.UTC(2025, 0, 1) };

function codon(globs: readonly string[], extra: Partial<CommitInput> = {}): CommitInput {
  return { codonId: "c", codonName: "C", type: "completed", globs, ...extra };
}

async function withTree(
  body: (root: string, write: (path: string, text: string) => Promise<void>) => Promise<void>,
) {
  const root = await mkdtemp(join(tmpdir(), "hankweave-memory-"));
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(dirname(join(root, "tree", path)), { recursive: true });
    await writeFile(join(root, "tree", path), text);
  };
  try {
    await mkdir(join(root, "tree"));
    await body(root, write);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

describe("memory checkpointer", () => {
  test("without a shared store, each checkpointer has its own history", () =>
    withTree(async (root, write) => {
      const one = createMemoryCheckpointer({ workTree: join(root, "tree"), clock });
      await one.init();
      await one.startRun("r");
      await write("a.md", "a");
      const made = await one.commit(codon(["a.md"]));
      assert.match(made.sha, /^[0-9a-f]{40}$/);
      const other = createMemoryCheckpointer({ workTree: join(root, "tree") });
      await other.init();
      assert.deepEqual(await other.list(), []);
      assert.equal(await other.resolve(made.sha), undefined);
    }));

  test("a line moved by another checkpointer on the store rejects with ref-moved", () =>
    withTree(async (root) => {
      const store = createMemoryCheckpointStore();
      const [first, second] = [0, 1].map(() =>
        createMemoryCheckpointer({ workTree: join(root, "tree"), clock, store }),
      ) as [Checkpointer, Checkpointer];
      for (const cp of [first, second]) {
        await cp.init();
        await cp.startRun("r");
      }
      await first.commit(codon([]));
      await assert.rejects(second.commit(codon([])), { name: "CheckpointError", code: "ref-moved" });
    }));

  test("init rejects a missing work tree", async () => {
    const cp = createMemoryCheckpointer({ workTree: join(tmpdir(), "hankweave-no-such-tree"), clock });
    await assert.rejects(cp.init(), { code: "git-unavailable" });
  });

  test("executable bits, nested repositories and nested .gitignore files: the same files as git", () =>
    withTree(async (root, write) => {
      const workTree = join(root, "tree");
      await write(".gitignore", "*.log\nlogs/\n");
      await write("sub/.gitignore", "!keep.log\n");
      for (const path of ["a.log", "sub/keep.log", "sub/x.log", "logs/l.md", "run.sh", "repo/f.md"]) {
        await write(path, path);
      }
      for (const dir of ["repo/.git/objects", "repo/.git/refs"])
        await mkdir(join(workTree, dir), { recursive: true });
      await write("repo/.git/HEAD", "ref: refs/heads/main\n");
      await chmod(join(workTree, "run.sh"), 0o755);
      const git = createGitCheckpointer({ gitDir: join(root, "git"), workTree, clock });
      const memory = createMemoryCheckpointer({ workTree, clock });
      const files = async (cp: Checkpointer): Promise<string[]> => {
        await cp.init();
        await cp.startRun("r");
        return cp.filesAt((await cp.commit(codon(["**"]))).sha);
      };
      const expected = await files(git);
      assert.deepEqual(expected, [".gitignore", "run.sh", "sub/.gitignore", "sub/keep.log"]);
      assert.deepEqual(await files(memory), expected);
    }));

  test("restore brings back the executable bit", () =>
    withTree(async (root, write) => {
      const workTree = join(root, "tree");
      const cp = createMemoryCheckpointer({ workTree, clock });
      await cp.init();
      await cp.startRun("r");
      await write("run.sh", "#!/bin/sh\n");
      await chmod(join(workTree, "run.sh"), 0o755);
      const target = await cp.commit(codon(["run.sh"]));
      await chmod(join(workTree, "run.sh"), 0o644);
      assert.deepEqual(await cp.restore(target.sha), { sha: target.sha, restored: ["run.sh"], removed: [] });
      assert.equal((await stat(join(workTree, "run.sh"))).mode & 0o100, 0o100);
    }));
});
