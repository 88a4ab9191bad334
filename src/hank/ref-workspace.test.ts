import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkWorkspaceGlob, checkWorkspaceTarget } from "./ref-workspace.ts";

describe("checkWorkspaceTarget", () => {
  test("accepted targets are normalized", () => {
    assert.deepEqual(checkWorkspaceTarget("src/app"), { ok: true, normalized: "src/app" });
    assert.deepEqual(checkWorkspaceTarget("./a//b/"), { ok: true, normalized: "a/b" });
    assert.deepEqual(checkWorkspaceTarget("a/../b"), { ok: true, normalized: "b" });
    assert.deepEqual(checkWorkspaceTarget("."), { ok: true, normalized: "." });
    assert.deepEqual(checkWorkspaceTarget(".gitignore"), { ok: true, normalized: ".gitignore" });
  });

  const outside: Array<[string, string]> = [
    ["/tmp/x", "absolute"],
    ["C:\\x", "absolute"],
    ["C:/x", "absolute"],
    ["../x", "escapes-workspace"],
    ["a/../../x", "escapes-workspace"],
    ["../agentRoot/x", "escapes-workspace"],
  ];
  for (const [to, rule] of outside) {
    test(`${rule}: ${to}`, () => {
      assert.deepEqual(checkWorkspaceTarget(to), {
        ok: false,
        rule,
        message: `Target path "${to}" would write outside execution directory`,
      });
    });
  }

  const invalid: Array<[string, string, string]> = [
    ["", "empty", 'Invalid target path "": the path is empty; name a path relative to agentRoot'],
    [
      "a\\b",
      "backslash",
      'Invalid target path "a\\b": it contains a backslash; use "/" as the only separator',
    ],
    ["a\0b", "nul-byte", 'Invalid target path "a\\u0000b": it contains a NUL byte'],
    [
      ".hankweave/state.json",
      "reserved",
      `Invalid target path ".hankweave/state.json": ".hankweave" is reserved for hankweave's own state`,
    ],
    [
      "vendor/.git/config",
      "reserved",
      'Invalid target path "vendor/.git/config": ".git" would write into a git directory',
    ],
    [".GIT", "reserved", 'Invalid target path ".GIT": ".GIT" would write into a git directory'],
    [".git/../x", "reserved", 'Invalid target path ".git/../x": ".git" would write into a git directory'],
    [
      "read_only_data_source/x",
      "data-source",
      'Invalid target path "read_only_data_source/x": read_only_data_source is the read-only link to the input data',
    ],
    [
      "./a/../read_only_data_source",
      "data-source",
      'Invalid target path "./a/../read_only_data_source": read_only_data_source is the read-only link to the input data',
    ],
  ];
  for (const [to, rule, message] of invalid) {
    test(`${rule}: ${JSON.stringify(to)}`, () => {
      assert.deepEqual(checkWorkspaceTarget(to), { ok: false, rule, message });
    });
  }
});

describe("checkWorkspaceGlob", () => {
  test("accepted globs", () => {
    assert.deepEqual(checkWorkspaceGlob("src/**/*.ts"), { ok: true, normalized: "src/**/*.ts" });
    assert.deepEqual(checkWorkspaceGlob("./report.md"), { ok: true, normalized: "report.md" });
    assert.deepEqual(checkWorkspaceGlob("notes..md"), { ok: true, normalized: "notes..md" });
  });

  const rejected: Array<[string, string, string]> = [
    ["", "empty", '"" is empty; name a path relative to agentRoot'],
    ["/abs/**", "absolute", '"/abs/**" is an absolute path; workspace paths are relative to agentRoot'],
    ["C:/x", "absolute", '"C:/x" is an absolute path; workspace paths are relative to agentRoot'],
    ["a/../b", "parent-segment", '"a/../b" contains a ".." segment; workspace paths may not leave agentRoot'],
    ["../x", "parent-segment", '"../x" contains a ".." segment; workspace paths may not leave agentRoot'],
    ["a\\*", "backslash", '"a\\*" contains a backslash; use "/" as the only separator'],
    ["a\0", "nul-byte", '"a\\u0000" contains a NUL byte'],
  ];
  for (const [glob, rule, message] of rejected) {
    test(`${rule}: ${JSON.stringify(glob)}`, () => {
      assert.deepEqual(checkWorkspaceGlob(glob), { ok: false, rule, message });
    });
  }
});
