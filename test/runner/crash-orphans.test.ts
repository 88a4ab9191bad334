import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * `kill -9` of the runtime alone (what the OOM killer does) leaves its children running: a rig command
 * or an agent runs in a process group of its own. Before the fix the next start restored the workspace
 * and ran the codon again while the orphan slept on, and the orphan then wrote into the restored
 * workspace: `late.txt` held two lines where an uninterrupted run writes one.
 */
/** Long enough that the rerun reaches recovery before the orphan wakes, also on a loaded machine. */
const RIG = "echo started > started.txt; sleep 4; echo late >> late.txt";

describe("a runtime killed alone, its rig command still running", () => {
  const { box, env, bin } = cliSandbox("crash-orphans");

  it("the next start ends the orphan before it restores the workspace, and says so", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", {
        checkpointedFiles: ["**"],
        rigSetup: [{ type: "command", command: { run: RIG } }],
      }),
    ]);
    const layout = executionLayout(join(box.root, "exec"));
    const args = [bin(), hank, "--data", hank, "-e", layout.executionDir, "--headless"];
    const child = spawn(process.execPath, args, { env: cliEnvironment(env), stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const started = join(layout.agentRoot, "started.txt");
    while (!existsSync(started) && child.exitCode === null) await sleep(5);
    child.kill("SIGKILL");
    await exited;

    const again = spawnSync(process.execPath, args, { env: cliEnvironment(env), encoding: "utf8" });
    assert.equal(again.status, 0, again.stdout + again.stderr);
    // The rerun's own rig slept 4 s too, so the orphan's moment has passed: only the rerun wrote.
    await sleep(500);
    assert.equal(readFileSync(join(layout.agentRoot, "late.txt"), "utf8"), "late\n");
    assert.equal(readFileSync(join(layout.agentRoot, "trail.txt"), "utf8").trim(), "a");
    const journal = readFileSync(layout.eventsPath, "utf8");
    assert.match(journal, /Ended \d+ process\(es\) the crashed run left running[^"]*sleep 4/);
  });
});
