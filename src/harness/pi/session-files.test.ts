import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { piWorkspace } from "./pi-test-support.ts";
import { findSessionFile } from "./session-files.ts";

describe("findSessionFile", () => {
  const workspace = piWorkspace();
  after(() => workspace.remove());

  it("finds a session by the id at the end of its file name", () => {
    mkdirSync(workspace.sessionDir);
    const name = "2026-11-30T09-31-25-782Z_01a22bcb-7cd5.jsonl";
    writeFileSync(join(workspace.sessionDir, name), "");
    writeFileSync(join(workspace.sessionDir, "2026-11-30T09-31-26-000Z_other.jsonl"), "");
    assert.equal(findSessionFile(workspace.sessionDir, "01a22bcb-7cd5"), join(workspace.sessionDir, name));
    assert.equal(findSessionFile(workspace.sessionDir, "7cd5"), undefined);
  });

  it("is undefined when the directory does not exist", () => {
    assert.equal(findSessionFile(join(workspace.root, "missing"), "x"), undefined);
  });
});
