import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { SentinelConfig } from "../hank/schema/index.ts";
import { prepareOutputs, sentinelOutputs } from "./sentinel-outputs.ts";

const dir = mkdtempSync(join(tmpdir(), "hw-sentinel-outputs-"));
const place = {
  agentRoot: join(dir, "agentRoot"),
  outputsDir: join(dir, "outputs"),
  codonId: "build#1",
  now: 42,
};
const config: SentinelConfig = {
  id: "notes",
  name: "Notes",
  model: "scripted",
  trigger: { type: "event", on: ["*"] },
  execution: { strategy: "immediate" },
  userPromptText: "x",
};

describe("sentinel outputs", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("appends text with the join string to a default log named after the sentinel, codon and time", () => {
    const outputs = sentinelOutputs({ ...config, joinString: "\\n==\\n" }, undefined, place);
    assert.equal(outputs.logPath, join(dir, "outputs", "notes", "notes-build-1-42.md"));
    prepareOutputs(outputs);
    outputs.write("first");
    outputs.write("second");
    assert.equal(readFileSync(outputs.logPath, "utf8"), "\n==\nfirst\n\n==\nsecond\n");
  });

  it("writes JSON lines and a pretty last value; a name with '/' lives in agentRoot", () => {
    const structured: SentinelConfig = { ...config, structuredOutput: { output: "object", schemaStr: "{}" } };
    const settings = { outputPaths: { logFile: "reports/notes.jsonl", lastValueFile: "latest.json" } };
    const outputs = sentinelOutputs(structured, settings, place);
    assert.equal(outputs.logPath, join(dir, "agentRoot", "reports", "notes.jsonl"));
    assert.equal(outputs.lastValuePath, join(dir, "outputs", "notes", "latest.json"));
    prepareOutputs(outputs);
    outputs.write({ risk: "low" });
    outputs.write({ risk: "high" });
    assert.equal(readFileSync(outputs.logPath, "utf8"), '{"risk":"low"}\n{"risk":"high"}\n');
    assert.equal(
      readFileSync(join(dir, "outputs", "notes", "latest.json"), "utf8"),
      '{\n  "risk": "high"\n}',
    );
  });

  it("writes text outputs as JSON strings in the jsonl format, from output.file", () => {
    const outputs = sentinelOutputs(
      { ...config, output: { format: "jsonl", file: "text.jsonl" } },
      undefined,
      place,
    );
    prepareOutputs(outputs);
    outputs.write('line "one"\nand two');
    assert.equal(readFileSync(outputs.logPath, "utf8"), '"line \\"one\\"\\nand two"\n');
  });
});
