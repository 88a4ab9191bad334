import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  codon,
  hankweave,
  journal,
  onlyExecution,
  payloads,
  type Sandbox,
  sandbox,
  writeHank,
} from "./support.ts";

/**
 * Scenario 17: `outputFiles` are copied to `-o` after each codon; a name taken by an earlier codon is
 * renamed `name_<n>_<unix seconds>.ext` unless `--overwrite-output`; a failing `beforeCopy` fails the
 * run with exit 1; without `-o` nothing is copied and `beforeCopy` does not run.
 */

function twoReports(sb: Sandbox): string {
  const beforeCopy = [
    { type: "command", command: { run: "echo before >> before.log", workingDirectory: "project" } },
  ];
  return writeHank(join(sb.root, "hank"), [
    codon("one", "@write report.md from one\n@write notes/n.txt note", {
      outputFiles: [{ copy: ["report.md", "notes/*.txt"] }],
    }),
    codon("two", "@write report.md from two", { outputFiles: [{ copy: ["report.md"], beforeCopy }] }),
  ]);
}

function listed(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("output files (scenario 17)", { concurrency: true }, () => {
  const boxes: Sandbox[] = [];
  after(() => {
    for (const box of boxes) box.remove();
  });
  const box = (name: string) => {
    const made = sandbox(name);
    boxes.push(made);
    return made;
  };

  it("copies to -o and renames a name taken by an earlier codon", async () => {
    const sb = box("outputs");
    const out = join(sb.root, "out");
    const from = Math.floor(Date.now() / 1000);
    const ran = await hankweave(sb, [twoReports(sb), "--headless", "-o", out]);
    const to = Math.ceil(Date.now() / 1000);
    assert.equal(ran.code, 0, ran.stderr);
    const files = listed(out);
    const renamed = files.find((f) => f.startsWith("report_"));
    assert.match(renamed ?? "", /^report_1_(\d+)\.md$/);
    const seconds = Number((renamed ?? "").slice("report_1_".length, -".md".length));
    assert.ok(seconds >= from && seconds <= to, `${seconds} is the copy time`);
    assert.deepEqual(files, ["notes", "notes/n.txt", renamed, "report.md"].sort());
    assert.equal(readFileSync(join(out, "report.md"), "utf8"), "from one");
    assert.equal(readFileSync(join(out, renamed ?? ""), "utf8"), "from two");
    assert.equal(readFileSync(join(out, "notes", "n.txt"), "utf8"), "note");
    assert.match(
      ran.stderr,
      new RegExp(`Output file "report.md" already exists in ${out}; copied as "${renamed}"`),
    );
    const layout = onlyExecution(sb);
    assert.equal(
      readFileSync(join(layout.agentRoot, "before.log"), "utf8"),
      "before\n",
      "beforeCopy ran once",
    );
    assert.equal(readFileSync(join(layout.agentRoot, "report.md"), "utf8"), "from two", "outputs are copies");
  });

  it("overwrites with --overwrite-output", async () => {
    const sb = box("outputs-overwrite");
    const out = join(sb.root, "out");
    const ran = await hankweave(sb, [twoReports(sb), "--headless", "-o", out, "--overwrite-output"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(listed(out), ["notes", "notes/n.txt", "report.md"]);
    assert.equal(readFileSync(join(out, "report.md"), "utf8"), "from two");
  });

  it("leaves outputs in agentRoot and skips beforeCopy without -o", async () => {
    const sb = box("outputs-none");
    const ran = await hankweave(sb, [twoReports(sb), "--headless"]);
    assert.equal(ran.code, 0, ran.stderr);
    const layout = onlyExecution(sb);
    assert.equal(existsSync(join(layout.agentRoot, "before.log")), false);
    assert.equal(readFileSync(join(layout.agentRoot, "report.md"), "utf8"), "from two");
    assert.equal(existsSync(join(sb.root, "out")), false);
  });

  it("fails the run with exit 1 when beforeCopy fails", async () => {
    const sb = box("outputs-fail");
    const out = join(sb.root, "out");
    const failing = [{ type: "command", command: { run: "exit 3", workingDirectory: "project" } }];
    const hank = writeHank(join(sb.root, "hank"), [
      codon("one", "@write report.md from one", {
        outputFiles: [{ copy: ["report.md"], beforeCopy: failing }],
      }),
      codon("two", "@write two.md never"),
    ]);
    const ran = await hankweave(sb, [hank, "--headless", "-o", out]);
    assert.equal(ran.code, 1, ran.stderr);
    const message =
      "Output files of one could not be copied: beforeCopy command failed with exit code 3: exit 3";
    assert.ok(ran.stderr.includes(`! ${message}`), ran.stderr);
    assert.deepEqual(listed(out), [], "nothing was copied");
    const events = await journal(onlyExecution(sb));
    assert.deepEqual(
      payloads(events, "codon.completed").map((c) => [c.codonId, c.success, c.failureReason?.message]),
      [["one", false, message]],
    );
    assert.deepEqual(
      payloads(events, "codon.started").map((s) => s.codonId),
      ["one"],
    );
  });
});
