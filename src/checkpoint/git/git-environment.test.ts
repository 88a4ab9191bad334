import assert from "node:assert/strict";
import { test } from "node:test";
import { commitDateEnvironment, gitEnvironment, INFO_EXCLUDE } from "./git-environment.ts";

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
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: "n",
    GIT_AUTHOR_EMAIL: "e@x",
    GIT_COMMITTER_NAME: "n",
    GIT_COMMITTER_EMAIL: "e@x",
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "safe.directory",
    GIT_CONFIG_VALUE_0: "*",
    GIT_CONFIG_KEY_1: "core.hooksPath",
    GIT_CONFIG_VALUE_1: "/dev/null",
  });
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
