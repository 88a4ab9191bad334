import assert from "node:assert/strict";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import {
  type ConformanceCase,
  codon,
  type MakeCheckpointer,
  startedCheckpointer,
  withFixture,
} from "./checkpoint-fixture.ts";

/** Conformance cases: what a commit records. Each runs against fresh temporary directories. */
export const COMMIT_CASES: readonly ConformanceCase[] = [
  [
    "a commit records created, modified and deleted files",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "one");
        await fx.write("notes/n.md", "note");
        const first = await cp.commit(codon("c1", ["*.md", "notes"]));
        assert.deepEqual(await cp.filesAt(first.sha), ["a.md", "notes/n.md"]);
        await fx.write("a.md", "two");
        await fx.remove("notes/n.md");
        await fx.write("notes/m.md", "new");
        const second = await cp.commit(codon("c2", ["*.md", "notes"]));
        assert.deepEqual(await cp.filesAt(second.sha), ["a.md", "notes/m.md"]);
        await cp.restore(first.sha);
        assert.equal(await fx.read("a.md"), "one");
      }),
  ],

  [
    "files outside a codon's globs keep the state earlier codons recorded",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("plan.md", "plan");
        await cp.commit(codon("plan", ["plan.md"]));
        await fx.write("plan.md", "edited later");
        await fx.write("code.ts", "code");
        const second = await cp.commit(codon("code", ["*.ts"]));
        assert.deepEqual(await cp.filesAt(second.sha), ["code.ts", "plan.md"]);
        await fx.write("code.ts", "changed");
        await cp.restore(second.sha);
        assert.equal(await fx.read("plan.md"), "plan");
        assert.equal(await fx.read("code.ts"), "code");
      }),
  ],

  [
    "empty globs make an empty commit that seals the tracked set",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        const first = await cp.commit(codon("c1", ["a.md"]));
        await fx.write("b.md", "b");
        const second = await cp.commit(codon("c2", []));
        assert.notEqual(second.sha, first.sha);
        assert.deepEqual(await cp.filesAt(second.sha), ["a.md"]);
      }),
  ],

  [
    "changedPaths limits a commit to the reported paths, deletions included",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        await fx.write("b.md", "b");
        const first = await cp.commit(codon("c1", ["*.md"], { changedPaths: ["a.md", "unrelated.txt"] }));
        assert.deepEqual(await cp.filesAt(first.sha), ["a.md"]);
        await fx.remove("a.md");
        const second = await cp.commit(codon("c2", ["*.md"], { changedPaths: [fx.abs("a.md")] }));
        assert.deepEqual(await cp.filesAt(second.sha), []);
        const third = await cp.commit(codon("c3", ["*.md"]));
        assert.deepEqual(await cp.filesAt(third.sha), ["b.md"]);
      }),
  ],

  [
    "a changed directory covers the files under it",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("notes/x.md", "x");
        await fx.write("notes/sub/y.md", "y");
        await fx.write("notes/sub/z.txt", "z");
        const first = await cp.commit(codon("c1", ["notes/**/*.md"], { changedPaths: ["notes"] }));
        assert.deepEqual(await cp.filesAt(first.sha), ["notes/sub/y.md", "notes/x.md"]);
        await fx.remove("notes");
        const second = await cp.commit(codon("c2", ["notes/**/*.md"], { changedPaths: ["notes/"] }));
        assert.deepEqual(await cp.filesAt(second.sha), []);
      }),
  ],

  [
    "globs honour every .gitignore, name directories, and keep * inside one segment",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = fx.open();
        await cp.init();
        const { baseSha } = await cp.startRun("scan");
        await fx.write(".gitignore", "*.log\nbuild/\n!keep.log\n");
        await fx.write("src/.gitignore", "gen/\n");
        const files = ["a.log", "keep.log", "build/out.md", "src/gen/g.ts", "src/main.ts", "src/deep/x.ts"];
        files.push("top.ts", "notes/n.txt", "notes/sub/m.txt", "other/o.ts");
        for (const path of files) await fx.write(path, path);
        const globs = ["*.ts", "src/**/*.ts", "*.log", "notes", "build"];
        const expected = [
          "keep.log",
          "notes/n.txt",
          "notes/sub/m.txt",
          "src/deep/x.ts",
          "src/main.ts",
          "top.ts",
        ];
        const scanned = await cp.commit(codon("scan", globs));
        assert.deepEqual(await cp.filesAt(scanned.sha), expected);
        await cp.startRun("hinted", baseSha);
        const hinted = await cp.commit(codon("hinted", globs, { changedPaths: files }));
        assert.deepEqual(await cp.filesAt(hinted.sha), expected);
      }),
  ],

  [
    "the data link, the archive and state or git directories are never committed",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        const files = [
          "rigArchive/r.md",
          ".hankweave/s.md",
          "sub/.hankweave/t.md",
          ".git/config",
          "sub/.git/HEAD",
        ];
        for (const path of files) await fx.write(path, "x");
        await fx.write("kept.md", "kept");
        await fx.write(".gitignore", "!read_only_data_source\n!rigArchive\n");
        const changed = ["read_only_data_source", "read_only_data_source/input.csv", ...files, "kept.md"];
        const hinted = await cp.commit(
          codon("c1", ["**", "read_only_data_source"], { changedPaths: changed }),
        );
        assert.deepEqual(await cp.filesAt(hinted.sha), ["kept.md"]);
        const scanned = await cp.commit(codon("c2", ["**", "*", "read_only_data_source", "rigArchive"]));
        assert.deepEqual(await cp.filesAt(scanned.sha), [".gitignore", "kept.md"]);
      }),
  ],

  [
    "a copied data source (a directory, not a link) is never committed either",
    (make) =>
      withFixture(make, async (fx) => {
        await fx.remove("read_only_data_source");
        await fx.write("read_only_data_source/input.csv", "copy");
        const cp = await startedCheckpointer(fx);
        await fx.write("out.md", "out");
        const commit = await cp.commit(codon("c1", ["**"]));
        assert.deepEqual(await cp.filesAt(commit.sha), ["out.md"]);
      }),
  ],

  [
    "a file may become a directory and back between checkpoints",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a", "file");
        const asFile = await cp.commit(codon("c1", ["a"]));
        await fx.remove("a");
        await fx.write("a/b.md", "inside");
        const asDir = await cp.commit(codon("c2", ["a"], { changedPaths: ["a", "a/b.md"] }));
        assert.deepEqual(await cp.filesAt(asDir.sha), ["a/b.md"]);
        const report = await cp.restore(asFile.sha);
        assert.deepEqual(report, { sha: asFile.sha, restored: ["a"], removed: ["a/b.md"] });
        assert.equal(await fx.read("a"), "file");
      }),
  ],

  [
    "symbolic links are recorded as links, never followed",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await mkdir(join(fx.root, "outside"));
        await fx.write("real.md", "real");
        await symlink(join(fx.root, "outside"), fx.abs("linked"));
        await symlink("real.md", fx.abs("alias.md"));
        const commit = await cp.commit(codon("c1", ["**"], { changedPaths: ["linked/x.md", "linked"] }));
        assert.deepEqual(await cp.filesAt(commit.sha), ["linked"]);
        const scanned = await cp.commit(codon("c2", ["**"]));
        assert.deepEqual(await cp.filesAt(scanned.sha), ["alias.md", "linked", "real.md"]);
      }),
  ],
];

export function commitConformance(make: MakeCheckpointer): void {
  for (const [name, run] of COMMIT_CASES) test(name, () => run(make));
}
