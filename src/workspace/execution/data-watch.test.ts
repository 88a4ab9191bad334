import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { compareDataWalks, DataSourceWatch, describeDataSourceChange } from "./data-watch.ts";

test("a change is found by name, size, mtime or ctime, and a rewrite that restores the mtime still shows", async () => {
  const root = mkdtempSync(join(tmpdir(), "hw-data-watch-"));
  try {
    writeFileSync(join(root, "a.csv"), "1,2\n");
    writeFileSync(join(root, "b.csv"), "3,4\n");
    const watch = new DataSourceWatch(root);
    assert.deepEqual(watch.baseline(), { kind: "unchanged" });
    assert.deepEqual(watch.check(), { kind: "unchanged" });
    const before = statSync(join(root, "a.csv"));
    writeFileSync(join(root, "a.csv"), "9,9\n");
    utimesSync(join(root, "a.csv"), before.atime, before.mtime);
    const changed = watch.check();
    assert.deepEqual(changed, { kind: "changed", change: { added: [], removed: [], modified: ["a.csv"] } });
    assert.deepEqual(watch.check(), { kind: "unchanged" }, "a change is reported once");
    chmodSync(join(root, "b.csv"), 0o600);
    writeFileSync(join(root, "c.csv"), "new");
    const next = watch.check();
    assert.deepEqual(next, {
      kind: "changed",
      change: { added: ["c.csv"], removed: [], modified: ["b.csv"] },
    });
    rmSync(root, { recursive: true });
    assert.equal(watch.check().kind, "unreadable");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the report names the data, the codon and the first paths of each kind", () => {
  const change = compareDataWalks(
    [
      { kind: "file", path: "x", size: 1, mtimeMs: 1 },
      { kind: "symlink", path: "l", target: "x" },
      { kind: "file", path: "gone", size: 1, mtimeMs: 1 },
    ],
    [
      { kind: "file", path: "x", size: 2, mtimeMs: 1 },
      { kind: "symlink", path: "l", target: "elsewhere" },
      ...["n1", "n2", "n3", "n4"].map((path) => ({ kind: "file" as const, path, size: 0, mtimeMs: 0 })),
    ],
  );
  assert.deepEqual(change, { added: ["n1", "n2", "n3", "n4"], removed: ["gone"], modified: ["x", "l"] });
  assert.equal(
    describeDataSourceChange(change, "/d", "codon edit#2"),
    "The read-only data source /d changed during codon edit#2: 2 modified (x, l), 4 added (n1, n2, n3, ...), 1 removed (gone). Agents must not write there; check the data, and restore it from your own copy if the change was not intended.",
  );
});
