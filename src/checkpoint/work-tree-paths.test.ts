import assert from "node:assert/strict";
import { test } from "node:test";
import { isMandatoryExcluded, parentDirectories, toWorkTreePath } from "./work-tree-paths.ts";

test("the data link and archive are excluded at the top, state and git directories at any depth", () => {
  const paths = [
    "read_only_data_source",
    "read_only_data_source/x.csv",
    "rigArchive/a/b",
    ".hankweave/state.json",
    "sub/.git/HEAD",
    "sub/.Git",
    "sub/read_only_data_source/x",
    "sub/rigArchive",
    "notes.git",
  ];
  assert.deepEqual(paths.map(isMandatoryExcluded), [true, true, true, true, true, true, false, false, false]);
});

test("reported paths become normalized work-tree paths; outside ones are dropped", () => {
  const root = "/exec/agentRoot";
  assert.deepEqual(
    [
      "a.md",
      "./notes//n.md",
      "/exec/agentRoot/src/x.ts",
      "/exec/agentRoot",
      "/exec/other/x",
      "../x",
      "a/../../b",
      "dir/",
    ].map((path) => toWorkTreePath(root, path)),
    ["a.md", "notes/n.md", "src/x.ts", ".", undefined, undefined, undefined, "dir"],
  );
});

test("parentDirectories lists parents deepest first", () => {
  assert.deepEqual(parentDirectories("a/b/c.md"), ["a/b", "a"]);
  assert.deepEqual(parentDirectories("top.md"), []);
});
