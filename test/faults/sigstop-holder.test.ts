import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { parseLockRecord, serializeLockRecord } from "../../src/workspace/lock/lock-record.ts";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * Item: split brain after SIGSTOP. The CLI runs a codon whose scripted agent (in the runtime's own
 * process) wrote a first line and sleeps a second. The CLI is stopped with SIGSTOP, and while it is
 * stopped its lock is taken over (the record another process writes once the heartbeat is stale:
 * its PID, the next generation; the two minutes of staleness are not waited out). Woken with SIGCONT,
 * the overdue sleep ends first and the agent's next step is a write (before the fix it landed, before
 * the heartbeat's timer ran): it must not happen, and the run must stop with the takeover's
 * message, leaving the other process's lock in place.
 */

const OTHER_PID = 424242;

describe("a CLI stopped with SIGSTOP while its lock is taken over", () => {
  const { box, env, bin } = cliSandbox("sigstop-holder");

  it("writes nothing more once woken: neither the workspace nor the journal", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt begin\n@sleep 1000\n@append trail.txt end"),
    ]);
    const layout = executionLayout(join(box.root, "exec"));
    const child = spawn(process.execPath, [bin(), hank, "--headless", "-e", layout.executionDir], {
      env: cliEnvironment(env),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const trail = join(layout.agentRoot, "trail.txt");
    while (!existsSync(trail) && child.exitCode === null) await sleep(5);
    child.kill("SIGSTOP");
    const held = parseLockRecord(readFileSync(layout.lockPath, "utf8"));
    assert.ok(held !== null);
    const other = { ...held, pid: OTHER_PID, generation: (held.generation ?? 0) + 1, runId: "other" };
    writeFileSync(layout.lockPath, serializeLockRecord(other));
    const journalBefore = readFileSync(layout.eventsPath, "utf8");
    await sleep(1500); // the agent's sleep is due when it wakes, before the heartbeat
    child.kill("SIGCONT");
    assert.equal(await exited, 1, stderr);
    assert.match(
      stderr,
      /lost the execution's lock while it was suspended: another process took it over \(PID 424242/,
    );
    assert.equal(readFileSync(trail, "utf8"), "begin\n", "the agent wrote after waking");
    assert.equal(readFileSync(layout.eventsPath, "utf8"), journalBefore, "the journal grew after waking");
    assert.equal(parseLockRecord(readFileSync(layout.lockPath, "utf8"))?.pid, OTHER_PID);
  });
});
