import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

/**
 * Crash safety of packing loose objects from the runtime's process (a run's close): a process killed
 * (SIGKILL) at an arbitrary moment while it writes objects and packs them leaves every object it
 * reported readable, and a store git accepts.
 */

const SCRIPT = join(import.meta.dirname, "pack-forever.ts");

test("SIGKILL while packing loose objects loses no object and leaves a store git accepts", async () => {
  const gitDir = await mkdtemp(join(tmpdir(), "hankweave-kill-pack-"));
  try {
    execFileSync("git", ["init", "-q", "--bare", gitDir]);
    const reported: string[] = [];
    for (const [round, killAfter] of [30, 75, 140, 260].entries()) {
      reported.push(...(await runAndKill(gitDir, `kill-${round}`, killAfter)));
    }
    // `git cat-file --batch-check` names each object it cannot read "missing".
    const checked = execFileSync("git", ["--git-dir", gitDir, "cat-file", "--batch-check"], {
      input: `${reported.join("\n")}\n`,
      encoding: "utf8",
    });
    assert.doesNotMatch(checked, /missing/);
    const packs = readdirSync(join(gitDir, "objects", "pack")).filter((name) => name.endsWith(".idx"));
    assert.ok(packs.length >= 3, `the children packed between the kills (${packs.length} packs)`);
    assert.equal(checked.trim().split("\n").length, reported.length);
    assert.equal(
      execFileSync("git", ["--git-dir", gitDir, "fsck", "--strict", "--no-dangling"], { encoding: "utf8" }),
      "",
    );
  } finally {
    await rm(gitDir, { recursive: true, force: true });
  }
});

/** Starts the child, kills it once it reported `killAfter` objects; the ids it reported. */
function runAndKill(gitDir: string, label: string, killAfter: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, gitDir, label], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.split("\n").length > killAfter) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", () => resolve(text.split("\n").filter((line) => /^[0-9a-f]{40}$/.test(line))));
  });
}
