import assert from "node:assert/strict";
import { test } from "node:test";
import { fsFaultMessage } from "./fs-fault.ts";

const systemError = (code: string, syscall: string, path?: string, dest?: string) =>
  Object.assign(new Error(`${code}: ${syscall}`), {
    code,
    syscall,
    ...(path !== undefined && { path }),
    ...(dest !== undefined && { dest }),
  });

test("each filesystem fault reads as one line: what, which path, why, the code and the fix", () => {
  assert.equal(
    fsFaultMessage(systemError("ENOSPC", "write", "/e/.hankweave/events/events.jsonl")),
    "Cannot write /e/.hankweave/events/events.jsonl: no space left on the device (ENOSPC). Free space on the disk that holds it, then run the same command again: the execution resumes where it stopped.",
  );
  assert.match(
    fsFaultMessage(systemError("EACCES", "mkdir", "/e/.hankweave")) ?? "",
    /^Cannot create the directory \/e\/\.hankweave: permission denied \(EACCES\)\. Give your user write access/,
  );
  assert.match(
    fsFaultMessage(systemError("EROFS", "open", "/ro/x")) ?? "",
    /^Cannot open \/ro\/x: the file system is read-only \(EROFS\)\. Put executions on a writable disk/,
  );
  assert.match(
    fsFaultMessage(
      systemError("EISDIR", "rename", "/e/.hankweave/state.json.tmp", "/e/.hankweave/state.json"),
    ) ?? "",
    /^Cannot replace \/e\/\.hankweave\/state\.json: a directory is where a file was expected \(EISDIR\)\. Move that directory out of the way/,
  );
  assert.match(
    fsFaultMessage(systemError("ENOTDIR", "open", "/e/a/b")) ?? "",
    /a file is where a directory was expected \(ENOTDIR\)/,
  );
  for (const message of [
    fsFaultMessage(systemError("ENOSPC", "write")),
    fsFaultMessage(systemError("EPERM", "unlink", "/e/runtime.lock")),
  ]) {
    assert.ok(message !== undefined && !message.includes("\n"));
  }
});

test("anything that is not a filesystem fault is left to the caller", () => {
  assert.equal(fsFaultMessage(new Error("a bug")), undefined);
  assert.equal(fsFaultMessage(systemError("ENOENT", "open", "/x")), undefined);
  assert.equal(fsFaultMessage("text"), undefined);
  assert.equal(fsFaultMessage(undefined), undefined);
});
