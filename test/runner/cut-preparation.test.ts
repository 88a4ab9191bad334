import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * A start lays the execution out (its directories, the data source, then `execution-meta.json`). A
 * kill inside that stretch left `.hankweave/` without a meta, and every later start refused the
 * directory ("no usable execution-meta.json"): the execution was wedged until `--force`. Seen when a
 * Loops daemon was killed at that moment; its run then ended `failed: body_failed`. The data source is
 * copied (`--copy`, 3,000 files) so that the stretch lasts long enough to kill the CLI inside it.
 */
const FILES = 3000;

describe("a start killed while it lays the execution out", () => {
  const { box, env, bin } = cliSandbox("cut-preparation");

  it("leaves nothing that stops the next start: the same command lays it out again and runs", async () => {
    const data = join(box.root, "data");
    mkdirSync(data);
    for (let i = 0; i < FILES; i++) writeFileSync(join(data, `f${i}.txt`), `${i}\n`);
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", { checkpointedFiles: ["**"] }),
    ]);
    const layout = executionLayout(join(box.root, "exec"));
    const args = [bin(), hank, data, "-e", layout.executionDir, "--headless", "--copy"];
    const child = spawn(process.execPath, args, { env: cliEnvironment(env), stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    while (!existsSync(layout.dataLink) && child.exitCode === null) await sleep(1);
    child.kill("SIGKILL");
    await exited;
    assert.ok(existsSync(layout.stateDir), "the kill came after the layout's directories were made");
    assert.ok(!existsSync(layout.metaPath), "the kill came before execution-meta.json was written");

    const again = spawnSync(process.execPath, args, { env: cliEnvironment(env), encoding: "utf8" });
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.equal(readFileSync(join(layout.agentRoot, "trail.txt"), "utf8").trim(), "a");
    assert.equal(readdirSync(layout.dataLink).length, FILES, "the data source is copied whole");
    assert.ok(existsSync(layout.metaPath));
  });
});
