import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { progressPrinter } from "../../src/cli/run/progress-printer.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { runExecution } from "../../src/runner/index.ts";
import { runOptions } from "../runner/support.ts";
import { codon, journal, onlyExecution, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: the agent cannot corrupt the runtime unnoticed. An agent that writes into the read-only data
 * source is reported (which codon, which files), and a journal edited between two runs is reported
 * when the execution resumes. Neither stops the run.
 */

const warningsOf = (events: readonly JournaledEvent[], code: string) =>
  events.flatMap((event) => (event.type === "error" && event.data.code === code ? [event.data] : []));

describe("the runtime notices what an agent or a hand changed behind its back", () => {
  const box = sandbox("integrity");
  after(() => box.remove());

  it("reports a codon that writes into the read-only data source, once, naming the codon and the files", async () => {
    const data = join(box.root, "data");
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "input.csv"), "a,b\n1,2\n");
    writeFileSync(join(data, "notes.txt"), "keep\n");
    const hank = writeHank(join(box.root, "hank-data"), [
      codon("reader", "@run cat read_only_data_source/input.csv > seen.txt"),
      codon(
        "vandal",
        "@run echo 3,4 >> read_only_data_source/input.csv && rm read_only_data_source/notes.txt",
      ),
      codon("after", "@say nothing more"),
    ]);
    const printed: string[] = [];
    const printer = progressPrinter({ write: (text) => printed.push(text) });
    const result = await runExecution({ ...runOptions(box, hank, { data }), listeners: [printer] });
    assert.equal(result.kind === "ran" && result.outcome, "completed", JSON.stringify(result).slice(0, 300));
    const events = await journal(onlyExecution(box));
    const reports = warningsOf(events, "data-source-changed");
    assert.equal(reports.length, 1, JSON.stringify(reports));
    const [report] = reports;
    assert.equal(report?.codon, "vandal");
    assert.equal(report?.fatal, false);
    assert.match(
      report?.message ?? "",
      /changed during codon vandal: 1 modified \(input\.csv\), 1 removed \(notes\.txt\)/,
    );
    assert.match(printed.join(""), /Data: {6}the read-only data source changed during vandal/);
  });

  it("reports a journal edited between runs when the execution resumes, and runs on", async () => {
    const hank = writeHank(join(box.root, "hank-journal"), [
      codon("one", "@append trail.txt one"),
      codon("two", "@fail API Error: 400 bad request"),
    ]);
    const execution = join(box.root, "edited");
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "failed");
    const layout = first.kind === "ran" ? first.layout : undefined;
    assert.ok(layout !== undefined);
    const lines = readFileSync(layout.eventsPath, "utf8").split("\n");
    const edited = lines.findIndex((line) => line.includes('"type":"codon.started"'));
    lines[edited] = lines[edited]?.replace('"codonName":"ONE"', '"codonName":"OWN"') ?? "";
    writeFileSync(layout.eventsPath, lines.join("\n"));
    const second = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(second.kind, "ran");
    const reports = warningsOf(await journal(layout), "journal-tampered");
    assert.equal(reports.length, 1, JSON.stringify(reports));
    assert.match(
      reports[0]?.message ?? "",
      /was changed outside hankweave: record \d+ does not follow the record before it/,
    );
  });
});
