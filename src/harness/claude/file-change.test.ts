import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileChangeOf, toolEffects } from "./file-change.ts";

const CWD = "/exec/agentRoot";

describe("fileChangeOf", () => {
  it("reads the file of Write, Edit, MultiEdit and NotebookEdit calls, relative to the workspace", () => {
    assert.deepEqual(fileChangeOf("Write", { file_path: "a/b.txt" }, { type: "create" }, CWD), {
      path: "a/b.txt",
      action: "created",
    });
    assert.deepEqual(fileChangeOf("Write", { file_path: `${CWD}/a/b.txt` }, { type: "update" }, CWD), {
      path: "a/b.txt",
      action: "modified",
    });
    assert.deepEqual(fileChangeOf("Edit", { file_path: "./src/x.ts" }, undefined, CWD), {
      path: "src/x.ts",
      action: "modified",
    });
    assert.deepEqual(fileChangeOf("MultiEdit", { file_path: "m.ts" }, undefined, CWD)?.path, "m.ts");
    assert.deepEqual(
      fileChangeOf("NotebookEdit", { notebook_path: "n.ipynb" }, undefined, CWD)?.path,
      "n.ipynb",
    );
  });

  it("ignores other tools, missing paths and files outside the workspace", () => {
    assert.equal(fileChangeOf("Bash", { command: "touch x" }, undefined, CWD), undefined);
    assert.equal(fileChangeOf("Write", {}, undefined, CWD), undefined);
    assert.equal(fileChangeOf("Write", { file_path: "/etc/passwd" }, undefined, CWD), undefined);
    assert.equal(fileChangeOf("Write", { file_path: "../outside.txt" }, undefined, CWD), undefined);
    assert.equal(fileChangeOf("Write", { file_path: CWD }, undefined, CWD), undefined);
  });

  it("tells what each tool may change: nothing, its reported file, or anything", () => {
    assert.deepEqual(
      ["Read", "Grep", "Write", "Edit", "NotebookEdit", "Bash", "Task", "mcp__x__y"].map(toolEffects),
      ["none", "none", "reported-files", "reported-files", "reported-files", "unknown", "unknown", "unknown"],
    );
  });
});
