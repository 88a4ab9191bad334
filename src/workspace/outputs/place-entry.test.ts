import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { placeEntry } from "./place-entry.ts";
import { type WorkspaceFixture, workspaceFixture } from "./test-support.ts";

let fx: WorkspaceFixture;
beforeEach(() => {
  fx = workspaceFixture();
});
afterEach(() => fx.remove());

const request = (
  destPath: string,
  onConflict: "rename" | "overwrite" | "fail",
  mode: "copy" | "move" = "copy",
) => ({
  source: join(fx.agentRoot, "a.txt"),
  kind: "file" as const,
  destRoot: fx.outside,
  destPath,
  mode,
  onConflict,
  unixSeconds: 42,
});

test("after 100 renamed variants the name conflict is a failure", async () => {
  fx.write(fx.agentRoot, "a.txt", "new");
  writeFileSync(join(fx.outside, "a.txt"), "");
  for (let n = 1; n <= 100; n++) writeFileSync(join(fx.outside, `a_${n}_42.txt`), "");
  assert.deepEqual(await placeEntry(request("a.txt", "rename")), {
    ok: false,
    error: '"a.txt" and its 100 renamed variants already exist',
  });
});

test("fail refuses a taken name; overwrite refuses a directory in the way", async () => {
  fx.write(fx.agentRoot, "a.txt", "new");
  fx.write(fx.outside, "a.txt", "old");
  fx.write(fx.outside, "dir/x", "");
  assert.deepEqual(await placeEntry(request("a.txt", "fail")), {
    ok: false,
    error: '"a.txt" already exists',
  });
  assert.deepEqual(await placeEntry(request("dir", "overwrite")), {
    ok: false,
    error: '"dir" exists and is a directory',
  });
  assert.equal(readFileSync(join(fx.outside, "a.txt"), "utf8"), "old");
});

test("a move takes the source away; a destination path with '..' is refused", async () => {
  fx.write(fx.agentRoot, "a.txt", "moved");
  assert.deepEqual(await placeEntry(request("deep/a.txt", "fail", "move")), { ok: true, to: "deep/a.txt" });
  assert.equal(existsSync(join(fx.agentRoot, "a.txt")), false);
  assert.equal(readFileSync(join(fx.outside, "deep", "a.txt"), "utf8"), "moved");
  assert.deepEqual(await placeEntry(request("../a.txt", "fail")), {
    ok: false,
    error: `"../a.txt" would leave ${fx.outside}`,
  });
});
