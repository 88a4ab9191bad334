import assert from "node:assert/strict";
import { test } from "node:test";
import { COMMAND_CONFIG, commitDateEnvironment, gitEnvironment, INFO_EXCLUDE } from "./git-environment.ts";

const commandScope = Object.fromEntries([
  ["GIT_CONFIG_COUNT", String(COMMAND_CONFIG.length)],
  ...COMMAND_CONFIG.flatMap(([key, value], i) => [
    [`GIT_CONFIG_KEY_${i}`, key],
    [`GIT_CONFIG_VALUE_${i}`, value],
  ]),
]);

test("the git environment is built from scratch: no HOME, no user or system config, fixed identity", () => {
  const env = gitEnvironment({
    gitDir: "/e/.hankweave/checkpoints/.hankweavecheckpoints",
    workTree: "/e/agentRoot",
    indexFile: "/e/.hankweave/checkpoints/.hankweavecheckpoints/index",
    identity: { name: "n", email: "e@x" },
    pathEnv: "/usr/bin",
  });
  assert.deepEqual(env, {
    PATH: "/usr/bin",
    LANG: "C",
    LC_ALL: "C",
    GIT_DIR: "/e/.hankweave/checkpoints/.hankweavecheckpoints",
    GIT_WORK_TREE: "/e/agentRoot",
    GIT_INDEX_FILE: "/e/.hankweave/checkpoints/.hankweavecheckpoints/index",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: "n",
    GIT_AUTHOR_EMAIL: "e@x",
    GIT_COMMITTER_NAME: "n",
    GIT_COMMITTER_EMAIL: "e@x",
    ...commandScope,
  });
});

test("the settings that could run a program or change what is recorded are given per command", () => {
  const keys = new Map(COMMAND_CONFIG);
  assert.equal(keys.get("core.hooksPath"), "/dev/null");
  assert.equal(keys.get("core.fsmonitor"), "false");
  assert.equal(keys.get("core.pager"), "cat");
  assert.equal(keys.get("core.excludesFile"), "/dev/null");
  assert.equal(keys.get("core.autocrlf"), "false");
  assert.equal(keys.get("commit.gpgSign"), "false");
});

test("commit dates come from the clock in whole seconds, UTC", () => {
  assert.deepEqual(commitDateEnvironment(Date.UTC(2025, 0, 1, 0, 0, 1, 999)), {
    GIT_AUTHOR_DATE: "@1735689601 +0000",
    GIT_COMMITTER_DATE: "@1735689601 +0000",
  });
});

test("info/exclude lists the mandatory excludes as ignore rules", () => {
  assert.equal(
    INFO_EXCLUDE,
    "# Written by hankweave: never checkpointed.\n/read_only_data_source\n/rigArchive\n.hankweave\n.git\n",
  );
});
