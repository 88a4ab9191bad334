import assert from "node:assert/strict";
import { test } from "node:test";
import { includesFile } from "./init-repository.ts";

test("includesFile finds the include git writes, and only in an [include] section", () => {
  const written = "[core]\n\tbare = false\n[include]\n\tpath = hankweave.gitconfig\n";
  assert.equal(includesFile(written, "hankweave.gitconfig"), true);
  assert.equal(includesFile('[Include]\n  path = "hankweave.gitconfig"\n', "hankweave.gitconfig"), true);
  assert.equal(includesFile("[core]\n\tbare = false\n", "hankweave.gitconfig"), false);
  assert.equal(includesFile("[other]\n\tpath = hankweave.gitconfig\n", "hankweave.gitconfig"), false);
  assert.equal(includesFile("[include]\n\tpath = other.gitconfig\n", "hankweave.gitconfig"), false);
});
