import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { dietJournal, restoreJournal } from "../../src/cli/journal-care/journal-diet.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { systemClock } from "../../src/engine/index.ts";
import { readAll, readTail } from "../../src/journal/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { acquireLock } from "../../src/workspace/lock/index.ts";
import { captureIo } from "./capture-io.ts";

/**
 * `--diet-journal` / `--restore-journal` on a finished scripted run whose journal carries long bodies
 * (a long assistant message and a long file written through a tool).
 */
describe("journal diet and restore", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-journal-care-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const execution = join(root, "exec");
  const layout = executionLayout(execution);
  let original: Buffer = Buffer.alloc(0);

  before(async () => {
    const hankDir = join(root, "hank");
    mkdirSync(hankDir);
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(60);
    const prompt = `@say ${long}\n@write notes.md ${long}\n@say done`;
    const codon = { id: "talk", name: "T", model: "scripted", continuationMode: "fresh", promptText: prompt };
    writeFileSync(
      join(hankDir, "hank.json"),
      JSON.stringify({ hank: [{ ...codon, checkpointedFiles: ["*.md"] }] }),
    );
    const { io, err } = captureIo(root);
    assert.equal(await runCli([hankDir, "-e", execution, "--headless"], io), 0, err());
    original = readFileSync(layout.eventsPath);
  });

  it("diets: smaller, re-chained, every record still read, and says so", async () => {
    const { io, out, err } = captureIo(root);
    assert.equal(await runCli(["--diet-journal", execution], io), 0, err());
    const dieted = readFileSync(layout.eventsPath);
    assert.ok(dieted.length < original.length);
    assert.equal(
      out(),
      `✓ Journal dieted: ${original.length} → ${dieted.length} bytes (${out().match(/\((\d+) unique/)?.[1]} unique bodies in CAS, ${out().match(/CAS, (\d+) bytes/)?.[1]} bytes compressed). Restore with: hankweave --restore-journal ${execution}\n`,
    );
    const read = await readAll(layout.eventsPath, { validate: true });
    assert.deepEqual(read.chainBreaks, []);
    assert.equal(read.skipped, 0);
    assert.equal(read.events.length, original.toString().trimEnd().split("\n").length);
    assert.equal(readTail(layout.eventsPath, 5).chainBreaks.length, 0);
    const message = read.events.find((event) => event.type === "assistant.action");
    assert.match(JSON.stringify(message?.data), /bytes in cas\/[0-9a-f]{16}; hankweave --restore-journal]/);
    assert.equal(dietJournal(execution).stdout, `✓ Journal already dieted (${read.events.length} events)\n`);
  });

  it("restores the original byte for byte, once", () => {
    const outcome = restoreJournal(execution);
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    assert.deepEqual(readFileSync(layout.eventsPath), original);
    assert.match(
      outcome.stdout,
      /^✓ Journal restored: \d+ bytes, verified byte-for-byte \(sha256 [0-9a-f]{64}\)\n$/,
    );
    assert.match(restoreJournal(execution).stdout, /^✓ Journal already restored and verified/);
  });

  it("refuses a running execution and touches nothing", () => {
    const held = acquireLock(layout.lockPath, { pid: process.ppid, runId: "live", clock: systemClock() });
    assert.equal(held.ok, true);
    try {
      const outcome = dietJournal(execution);
      assert.equal(outcome.exitCode, 1);
      assert.match(outcome.stderr, /^Error: not dieting .*: the execution appears to be running\.\n/);
      assert.deepEqual(readFileSync(layout.eventsPath), original);
    } finally {
      if (held.ok) held.lock.release();
    }
  });

  it("refuses to restore a journal that was never dieted", () => {
    const other = join(root, "never");
    mkdirSync(executionLayout(other).eventsDir, { recursive: true });
    writeFileSync(executionLayout(other).eventsPath, "");
    assert.match(
      restoreJournal(other).stderr,
      /^Error: journal restore failed: .*journal\.diet\.json not found/,
    );
  });
});
