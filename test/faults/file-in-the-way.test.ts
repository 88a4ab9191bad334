import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type BundledCli, bundleCli } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: a file where one of the execution's directories belongs (something other than hankweave put it
 * there) ends the start with one line naming that directory and the fix, not a stack trace.
 */

const DIRECTORIES = ["agentRoot", ".hankweave/events", ".hankweave/checkpoints", "rigArchive"];

describe("a file where an execution directory belongs", () => {
  const box = sandbox("file-in-the-way");
  let cli: BundledCli | undefined;
  let hank = "";
  const start = (execution: string) =>
    spawnSync(process.execPath, [cli?.path ?? "", hank, "--headless", "-e", execution], {
      env: cliEnvironment({ HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(box.root, "executions") }),
      encoding: "utf8",
      timeout: 60_000,
    });
  before(async () => {
    cli = await bundleCli();
    hank = writeHank(join(box.root, "hank"), [codon("a", "@append trail.txt a")]);
  });
  after(() => {
    cli?.remove();
    box.remove();
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
