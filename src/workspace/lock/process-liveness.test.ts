import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { isProcessAlive } from "./process-liveness.ts";

const hasProc = existsSync("/proc/self/stat");

/** Runs `script` in sh and resolves with the first line it prints, the sh process still running. */
async function firstLine(script: string): Promise<{ line: string; stop: () => void }> {
  const child = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "ignore"] });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return { line: chunk.toString("utf8").trim(), stop: () => child.kill("SIGKILL") };
}

it("isProcessAlive finds this process running", () => {
  assert.equal(isProcessAlive(process.pid), true);
  assert.equal(isProcessAlive(process.pid, Date.now()), true, "this process started before now");
});

describe("isProcessAlive on Linux", { skip: hasProc ? false : "needs Linux /proc" }, () => {
  it("finds a killed process that its parent has not reaped (a zombie) gone", async () => {
    // `exec sleep` never waits for the backgrounded child: once that child exits it stays a zombie.
    const { line, stop } = await firstLine("sleep 0.05 & echo $!; exec sleep 30");
    try {
      const zombie = Number(line);
      for (let tries = 0; tries < 100 && isProcessAlive(zombie); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.doesNotThrow(() => process.kill(zombie, 0), "signal 0 still finds the zombie");
      assert.equal(isProcessAlive(zombie), false);
    } finally {
      stop();
    }
  });

  it("finds a PID held by a process younger than the lock not to be the lock's", async () => {
    const { line, stop } = await firstLine("echo $$; exec sleep 30");
    try {
      const pid = Number(line);
      assert.equal(isProcessAlive(pid, Date.now() + 1_000), true, "a lock taken after the process started");
      assert.equal(isProcessAlive(pid, Date.now() - 3_600_000), false, "a lock taken an hour before it");
      assert.equal(isProcessAlive(pid), true, "without a lock time, existence decides");
    } finally {
      stop();
    }
  });
});
