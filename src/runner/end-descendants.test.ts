import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, it } from "node:test";
import { isProcessAlive } from "../workspace/lock/index.ts";
import { endDescendants } from "./end-descendants.ts";

/**
 * A parent process (standing in for the CLI) starts an agent-like command as the leader of its own
 * process group; the command ignores SIGTERM and has a child of its own. Ending the parent's
 * descendants must kill both, and leave the parent alone.
 */
const PARENT = `
const { spawn } = require("node:child_process");
const agent = spawn("sh", ["-c", "trap '' TERM; sleep 60 & echo $! ; wait"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
agent.stdout.once("data", (grandchild) => process.stdout.write(agent.pid + " " + grandchild));
setInterval(() => {}, 1000);
`;

describe("endDescendants", () => {
  it("kills every process group a process started, SIGTERM-deaf processes and grandchildren included", async () => {
    const parent = spawn(process.execPath, ["-e", PARENT], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const [line] = (await once(parent.stdout, "data")) as [Buffer];
      const [agent = 0, grandchild = 0] = line.toString().trim().split(/\s+/).map(Number);
      assert.ok(isProcessAlive(agent) && isProcessAlive(grandchild));
      assert.ok(endDescendants(parent.pid ?? 0) >= 1);
      for (let tries = 0; tries < 200 && (isProcessAlive(agent) || isProcessAlive(grandchild)); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The agent is a zombie until its parent reaps it; the grandchild must be gone for good.
      assert.equal(isProcessAlive(grandchild), false, "the grandchild was killed");
      assert.equal(parent.exitCode, null, "the parent itself is left alone");
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
