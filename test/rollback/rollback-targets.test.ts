import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { JournalWriter } from "../../src/journal/index.ts";
import { after, codon, hankOf, sandbox } from "./support.ts";

const HANK = hankOf([
  codon("a", "@write a.md from a", { checkpointedFiles: ["a.md"] }),
  codon("b", "@write b.md from b\n@write scratch.txt notes of b", {
    checkpointedFiles: ["b.md"],
    archiveOnSuccess: ["scratch.txt"],
  }),
  codon("c", "@write c.md from c", { checkpointedFiles: ["c.md"] }),
]);

async function ranSandbox() {
  const box = sandbox(HANK);
  const ran = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
  assert.equal(ran.code, 0, ran.stderr);
  return box;
}

describe("hankweave rollback: targets and refusals", () => {
  it("refuses an unknown target and writes nothing", async () => {
    const box = await ranSandbox();
    try {
      const count = box.journal().length;
      const ran = await box.cli(["rollback", "nope", "-e", box.exec]);
      assert.equal(ran.code, 1);
      assert.equal(
        ran.stderr,
        `✗ Codon "nope" has no checkpoint on the current line (codons with checkpoints: a, b, c).\n  List the checkpoints with: hankweave checkpoints -e ${box.exec}\n`,
      );
      const unknownSha = await box.cli(["rollback", "0000000", "-e", box.exec]);
      assert.equal(unknownSha.code, 1);
      assert.match(unknownSha.stderr, /^✗ No checkpoint matches "0000000"\.\n/);
      const shortSha = await box.cli(["rollback", "abc", "--type", "end", "-e", box.exec]);
      assert.match(shortSha.stderr, /^✗ Codon "abc" has no checkpoint on the current line/);
      assert.equal(box.journal().length, count);
      assert.equal(box.file("c.md"), "from c");
    } finally {
      box.remove();
    }
  });

  it("refuses a checkpoint a rollback abandoned", async () => {
    const box = await ranSandbox();
    try {
      const listed = JSON.parse((await box.cli(["checkpoints", "-e", box.exec, "--json"])).stdout);
      const cDone = listed.checkpoints.find((c: { codonId: string }) => c.codonId === "c");
      assert.equal((await box.cli(["rollback", "a", "-e", box.exec])).code, 0);
      const ran = await box.cli(["rollback", cDone.sha.slice(0, 10), "-e", box.exec]);
      assert.equal(ran.code, 1);
      assert.match(
        ran.stderr,
        /is not on the current line of this execution: a later rollback abandoned it\./,
      );
    } finally {
      box.remove();
    }
  });

  it("refuses while a live process holds the execution", async () => {
    const box = await ranSandbox();
    try {
      const now = new Date().toISOString();
      const record = {
        pid: process.ppid,
        runId: "someone",
        startedAt: now,
        heartbeatAt: now,
        hostname: hostname(),
      };
      writeFileSync(join(box.exec, ".hankweave", "runtime.lock"), JSON.stringify(record));
      const ran = await box.cli(["rollback", "a", "-e", box.exec]);
      assert.equal(ran.code, 1);
      assert.match(ran.stderr, new RegExp(`${process.ppid}`));
      assert.equal(box.file("c.md"), "from c");
    } finally {
      box.remove();
    }
  });

  it("puts back files archived after the target, and keeps a completed codon's own archive archived", async () => {
    const box = await ranSandbox();
    try {
      assert.equal(box.file("scratch.txt"), null);
      const atB = await box.cli(["rollback", "b", "--type", "completed", "-e", box.exec]);
      assert.equal(atB.code, 0, atB.stderr);
      assert.equal(box.file("scratch.txt"), null);

      const marker = box.journal().length;
      const atStart = await box.cli(["rollback", "b", "--type", "start", "-e", box.exec]);
      assert.equal(atStart.code, 0, atStart.stderr);
      assert.equal(box.file("scratch.txt"), "notes of b");
      assert.equal(box.file("b.md"), null);
      const events = box.journal();
      assert.deepEqual(after(events, marker, "rollback.archiveRestore"), [
        { codonId: "b", restoredPaths: ["scratch.txt"], status: "completed" },
      ]);
      const [completed] = after(events, marker, "rollback.completed");
      assert.equal(completed?.checkpointType, "start");
      assert.equal(completed?.codonId, "b");

      const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.equal(box.file("b.md"), "from b");
      assert.equal(box.file("scratch.txt"), null);
    } finally {
      box.remove();
    }
  });

  it("refuses to run after an interrupted rollback, until the rollback is repeated", async () => {
    const box = await ranSandbox();
    try {
      const listed = JSON.parse((await box.cli(["checkpoints", "-e", box.exec, "--json"])).stdout);
      const aDone = listed.checkpoints.find((c: { codonId: string }) => c.codonId === "a");
      const writer = JournalWriter.open(join(box.exec, ".hankweave", "events", "events.jsonl"));
      writer.append({
        type: "rollback.started",
        data: {
          fromRun: listed.runId,
          fromCodon: "c",
          toCodon: "a",
          toCheckpoint: aDone.sha,
          checkpointType: "completed",
          codonsToProcess: ["b", "c"],
        },
      });
      writer.close();
      const refused = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr.trim().split("\n").slice(-4).join("\n"),
        [
          `✗ A rollback to a (completed, checkpoint ${aDone.sha.slice(0, 7)}) was interrupted before it completed; the checkpointed files may be partly restored. Either:`,
          `  finish it:   hankweave rollback ${aDone.sha.slice(0, 12)} -e ${box.exec}`,
          `  abandon it:  hankweave rollback --abandon -e ${box.exec}   (puts the files back to where the execution stood)`,
          "then run the execution again.",
        ].join("\n"),
      );
      assert.equal((await box.cli(["rollback", aDone.sha.slice(0, 12), "-e", box.exec])).code, 0);
      const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.equal(box.file("c.md"), "from c");
    } finally {
      box.remove();
    }
  });
});
