import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * Item: a file where one of the execution's directories belongs (something other than hankweave put it
 * there) ends the start with one line naming that directory and the fix, not a stack trace.
 */

const DIRECTORIES = ["agentRoot", ".hankweave/events", ".hankweave/checkpoints", "rigArchive"];

describe("a file where an execution directory belongs", () => {
  const { box, env, bin } = cliSandbox("file-in-the-way");
  const hank = writeHank(join(box.root, "hank"), [codon("a", "@append trail.txt a")]);
  const start = (execution: string) =>
    spawnSync(process.execPath, [bin(), hank, "--headless", "-e", execution], {
      env: cliEnvironment(env),
      encoding: "utf8",
      timeout: 60_000,
    });

  for (const directory of DIRECTORIES) {
    it(`${directory}: one line naming it, and the fix`, () => {
      const execution = join(box.root, directory.replaceAll("/", "-"));
      assert.equal(start(execution).status, 0);
      rmSync(join(execution, directory), { recursive: true });
      writeFileSync(join(execution, directory), "not a directory\n");
      const again = start(execution);
      assert.equal(again.status, 1, again.stderr);
      assert.doesNotMatch(again.stderr, /^\s+at /m, "no stack trace");
      const path = join(execution, directory).replaceAll(".", "\\.");
      assert.match(
        again.stderr.trim(),
        new RegExp(
          `^✗ Cannot create the directory ${path}: a file is where a directory was expected \\(ENOTDIR\\)\\. Move that file out of the way`,
        ),
      );
    });
  }
});
