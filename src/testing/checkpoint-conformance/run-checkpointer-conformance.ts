import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { codon, type MakeCheckpointer, withFixture } from "./checkpoint-fixture.ts";
import { commitConformance } from "./commit-cases.ts";
import { restoreConformance } from "./restore-cases.ts";
import { runConformance } from "./run-cases.ts";

/**
 * Registers (with node:test) the behaviour every Checkpointer must show, against real temporary
 * directories: `make` receives a fresh work tree, an empty state directory for the store and a clock,
 * and may be called several times per test on the same directories (a reopened store).
 */
export function runCheckpointerConformance(name: string, make: MakeCheckpointer): void {
  describe(`${name}: checkpointer conformance`, () => {
    describe("commits", () => commitConformance(make));
    describe("runs and lookups", () => runConformance(make));
    describe("restore", () => restoreConformance(make));
    describe("glob semantics", () => globConformance(make));
  });
}

/** Files for the glob table: each glob's expected selection is listed with it. */
const TREE = [
  "a.md",
  ".env",
  "b.txt",
  "c.txt",
  "ab.txt",
  "docs/guide.md",
  "docs/api/ref.md",
  "docs1/x.md",
  "src/index.ts",
  "src/util/index.ts",
  "src/util/deep/index.ts",
  "lib/a.js",
  "lib/x/y/b.js",
  "x/y",
  "x/m/y",
  "x/m/n/y",
  "test/t.ts",
  "pkg/test/u.ts",
  "abc",
  "[lit].md",
];

const GLOBS: readonly (readonly [string, readonly string[]])[] = [
  ["*.md", ["[lit].md", "a.md"]],
  ["*", TREE],
  [".*", [".env"]],
  ["docs", ["docs/api/ref.md", "docs/guide.md"]],
  ["./docs/", ["docs/api/ref.md", "docs/guide.md"]],
  ["docs*", ["docs/api/ref.md", "docs/guide.md", "docs1/x.md"]],
  ["docs/*.md", ["docs/guide.md"]],
  ["**/*.ts", ["pkg/test/u.ts", "src/index.ts", "src/util/deep/index.ts", "src/util/index.ts", "test/t.ts"]],
  ["src/*/index.ts", ["src/util/index.ts"]],
  ["lib/**/*.js", ["lib/a.js", "lib/x/y/b.js"]],
  ["x/**/y", ["x/m/n/y", "x/m/y", "x/y"]],
  ["**/test/**", ["pkg/test/u.ts", "test/t.ts"]],
  ["abc/**", []],
  ["?.txt", ["b.txt", "c.txt"]],
  ["[ab]*.txt", ["ab.txt", "b.txt"]],
  ["[!b]?.txt", ["ab.txt"]],
  ["[a-c].txt", ["b.txt", "c.txt"]],
  ["[[:alpha:]]b.txt", ["ab.txt"]],
  ["src/**", ["src/index.ts", "src/util/deep/index.ts", "src/util/index.ts"]],
  ["nothing-here", []],
];

/** The whole-tree scan and the changed-paths route select the same files for every glob. */
function globConformance(make: MakeCheckpointer): void {
  test("globs select the same files whether scanned or named as changed paths", () =>
    withFixture(make, async (fx) => {
      for (const path of TREE) await fx.write(path, path);
      const cp = fx.open();
      await cp.init();
      const { baseSha } = await cp.startRun("base");
      const sorted = (paths: readonly string[]): string[] => [...paths].sort();
      for (const [index, [glob, expected]] of GLOBS.entries()) {
        await cp.startRun(`scan-${index}`, baseSha);
        const scanned = await cp.commit(codon("scan", [glob]));
        assert.deepEqual(await cp.filesAt(scanned.sha), sorted(expected), `scan ${glob}`);
        await cp.startRun(`hinted-${index}`, baseSha);
        const hinted = await cp.commit(codon("hinted", [glob], { changedPaths: TREE }));
        assert.deepEqual(await cp.filesAt(hinted.sha), sorted(expected), `changed paths ${glob}`);
      }
    }));
}
