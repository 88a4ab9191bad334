import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readAll } from "../../src/journal/index.ts";
import { type ExecutionResult, runExecution } from "../../src/runner/index.ts";
import { runOptions } from "../runner/support.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: faults become messages. A filesystem fault ends the start or the run with one line naming the
 * path, the cause and the fix (journaled when the journal can be written), and an error while cleaning
 * up (the lock that cannot be removed) never replaces the fault that came first.
 */

function refusal(result: ExecutionResult): string {
  assert.equal(result.kind, "refused", JSON.stringify(result).slice(0, 300));
  return result.kind === "refused" ? result.message : "";
}

/** `chattr +i` needs CAP_LINUX_IMMUTABLE (root on most machines); without it that case is skipped. */
function immutableFlagWorks(): boolean {
  const probe = mkdtempSync(join(tmpdir(), "hw-chattr-"));
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

describe("filesystem faults become one-line messages", () => {
  const box = sandbox("faults");
  after(() => box.remove());

  it("a directory where the journal belongs: refused, naming the journal and the fix", async () => {
    const hank = writeHank(join(box.root, "hank"), [codon("one", "@append trail.txt one")]);
    const execution = join(box.root, "exec-dir");
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "completed");
    const events = first.kind === "ran" ? first.layout.eventsPath : "";
    rmSync(events);
    mkdirSync(events);
    const message = refusal(await runExecution(runOptions(box, hank, { execution })));
    assert.equal(message.split("\n").length, 1);
    assert.match(
      message,
      /^Cannot \w+ .*events\.jsonl: a directory is where a file was expected \(EISDIR\)\. Move that directory/,
    );
  });

  it("a state directory that cannot be written: the fault, not the lock that could not be removed, is reported", {
    skip: immutableFlagWorks() ? false : "chattr +i is not permitted here",
  }, async () => {
    const hank = writeHank(join(box.root, "hank-immutable"), [codon("one", "@append trail.txt one")]);
    let stateDir = "";
    try {
      const result = await runExecution(
        runOptions(box, hank, {
          execution: join(box.root, "exec-immutable"),
          onOpened: (layout) => {
            stateDir = layout.stateDir;
            execFileSync("chattr", ["+i", stateDir]);
          },
        }),
      );
      const message = refusal(result);
      assert.equal(message.split("\n").length, 1);
      assert.match(message, /^Cannot \w+( the directory)? .*\.hankweave.*: the operation is not permitted/);
      assert.doesNotMatch(message, /runtime\.lock/);
      const journal = await readAll(join(stateDir, "events", "events.jsonl"));
      const faults = journal.events.flatMap((e) =>
        e.type === "error" && e.data.code === "filesystem" ? [e.data] : [],
      );
      assert.deepEqual(
        faults.map((f) => f.fatal),
        [true, false],
        "the fault, then the lock that stayed behind, are journaled",
      );
      assert.match(
        faults[1]?.message ?? "",
        /runtime\.lock could not be removed; the next start takes it over/,
      );
    } finally {
      if (stateDir !== "") execFileSync("chattr", ["-i", stateDir]);
    }
  });
});
