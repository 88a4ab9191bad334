import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../src/cli/run-cli.ts";
import { captureIo } from "./capture-io.ts";

/**
 * `--init`, then `--validate`, then the offline command the validation printed, in the same fresh
 * directory: the starter validates clean and the whole hank runs with no API key.
 */
describe("hankweave --init, then a scripted run", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-init-run-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("prints the welcome when bare in a directory without hank.json", async () => {
    const dir = join(root, "bare");
    mkdirSync(dir);
    const { io, out } = captureIo(dir);
    assert.equal(await runCli(["-y"], io), 0);
    assert.match(out(), /^Welcome to hankweave/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("scaffolds, validates clean, then runs every codon offline with the printed command", async () => {
    const dir = join(root, "project");
    const executions = join(root, "executions");
    mkdirSync(dir);
    const init = captureIo(dir);
    assert.equal(await runCli(["--init"], init.io), 0, init.err());
    assert.match(init.out(), /^ {2}hankweave -m scripted --headless +run it offline, no API key needed$/m);
    const validate = captureIo(dir);
    assert.equal(await runCli(["--validate"], validate.io), 0, validate.err());
    assert.doesNotMatch(validate.out(), /Warnings|^ *! /m);
    const offline = /^Offline, no API key:\n {2}hankweave (.+)$/m.exec(validate.out())?.[1];
    assert.equal(offline, "hank.json -m scripted --headless");
    const run = captureIo(dir, { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: executions });
    assert.equal(await runCli(offline.split(" "), run.io), 0, run.err());
    const [execution] = readdirSync(executions);
    const journal = readFileSync(
      join(executions, execution ?? "", ".hankweave", "events", "events.jsonl"),
      "utf8",
    );
    const completed = journal
      .split("\n")
      .filter((line) => line.includes('"codon.completed"'))
      .map((line) => (JSON.parse(line) as { data: { codonId: string; success: boolean } }).data)
      .map((data) => `${data.codonId}:${data.success}`);
    assert.deepEqual(completed, ["summarize:true", "review#0:true", "review#1:true"]);
    const summary = readFileSync(join(executions, execution ?? "", "agentRoot", "summary.md"), "utf8");
    assert.match(summary, /^# Summary\n/);
  });
});
