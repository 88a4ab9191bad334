import assert from "node:assert/strict";
import { mkdir, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import {
  type ConformanceCase,
  codon,
  type MakeCheckpointer,
  startedCheckpointer,
  withFixture,
} from "./checkpoint-fixture.ts";

/** Conformance cases: restoring a checkpoint into the work tree. Each runs against fresh temporary directories. */
export const RESTORE_CASES: readonly ConformanceCase[] = [
  [
    "restore brings back modified and deleted files and removes the selection's new files",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write(".gitignore", "*.log\n");
        await fx.write("a.md", "original");
        await fx.write("notes/n.md", "note");
        await fx.write("same.md", "same");
        const target = await cp.commit(codon("c1", ["*.md", "notes"]));
        await fx.write("a.md", "modified");
        await fx.remove("notes/n.md");
        await fx.write("b.md", "created");
        await fx.write("notes/new.md", "created");
        await fx.write("other.txt", "not in the selection");
        await fx.write("ignored.log", "ignored");
        const report = await cp.restore(target.sha, { globs: ["*.md", "notes"] });
        assert.deepEqual(report, {
          sha: target.sha,
          restored: ["a.md", "notes/n.md"],
          removed: ["b.md", "notes/new.md"],
        });
        assert.equal(await fx.read("a.md"), "original");
        assert.equal(await fx.read("notes/n.md"), "note");
        assert.equal(await fx.read("same.md"), "same");
        assert.equal(await fx.exists("b.md"), false);
        assert.equal(await fx.read("other.txt"), "not in the selection");
        assert.equal(await fx.read("ignored.log"), "ignored");
        assert.equal(await fx.read("read_only_data_source/input.csv"), "a,b\n1,2\n");
        assert.equal(await readlink(fx.abs("read_only_data_source")), fx.dataDir);
      }),
  ],

  [
    "restore removes files checkpointed after the target, without globs",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        const target = await cp.commit(codon("c1", ["*.md"]));
        await fx.write("b.md", "b");
        await fx.write("deep/x/y.md", "y");
        await fx.write("deep/keep.txt", "keep");
        await cp.commit(codon("c2", ["**/*.md"]));
        const report = await cp.restore(target.sha);
        assert.deepEqual(report, { sha: target.sha, restored: [], removed: ["b.md", "deep/x/y.md"] });
        assert.equal(await fx.exists("deep/x"), false, "emptied directories are pruned");
        assert.equal(await fx.read("deep/keep.txt"), "keep");
      }),
  ],

  [
    "restore to the initial checkpoint empties the selection; the next commit starts from it",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = fx.open();
        await cp.init();
        const { baseSha } = await cp.startRun("run-1");
        await fx.write("a.md", "a");
        await cp.commit(codon("c1", ["*.md"]));
        assert.deepEqual(await cp.restore(baseSha), { sha: baseSha, restored: [], removed: ["a.md"] });
        await cp.startRun("run-2", baseSha);
        await fx.write("b.md", "b");
        const next = await cp.commit(codon("c2", ["*.md"]));
        assert.deepEqual(await cp.filesAt(next.sha), ["b.md"]);
      }),
  ],

  [
    "restore never deletes through a symbolic link",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        const target = await cp.commit(codon("c1", []));
        await fx.write("dir/x.md", "inside");
        await cp.commit(codon("c2", ["dir"]));
        await fx.remove("dir");
        const outside = join(fx.root, "outside");
        await mkdir(outside);
        await fx.write("../outside/x.md", "must survive");
        await symlink(outside, fx.abs("dir"));
        const report = await cp.restore(target.sha, { globs: ["dir"] });
        assert.deepEqual(report.removed, ["dir"]);
        assert.equal(await fx.read("../outside/x.md"), "must survive");
      }),
  ],

  [
    "restore is idempotent",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        const target = await cp.commit(codon("c1", ["*.md"]));
        await fx.write("a.md", "changed");
        await cp.restore(target.sha, { globs: ["*.md"] });
        assert.deepEqual(await cp.restore(target.sha, { globs: ["*.md"] }), {
          sha: target.sha,
          restored: [],
          removed: [],
        });
      }),
  ],
];

export function restoreConformance(make: MakeCheckpointer): void {
  for (const [name, run] of RESTORE_CASES) test(name, () => run(make));
}
