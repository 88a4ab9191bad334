import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { brief, codon, hankOf, run } from "./test-kit.ts";

const base = {
  name: "Watcher",
  trigger: { type: "event", on: ["file.updated"] },
  execution: { strategy: "immediate" },
  model: "anthropic/claude-haiku-4-5",
};

describe("sentinel checks", () => {
  let dir = "";
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hw-sentinels-"));
    fs.mkdirSync(path.join(dir, "sentinels"));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, "sentinels", name), text);
    write("ok.json", JSON.stringify({ ...base, id: "ok", userPromptFile: "ok-prompt.md" }));
    write("ok-prompt.md", "Watch.\n");
    write("broken.json", '{ "id": "x", }');
    write("schema.json", JSON.stringify({ ...base, id: "Bad Id", userPromptText: "x" }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const entry = (sentinelConfig: unknown, fail = false) =>
    fail ? { sentinelConfig, settings: { failCodonIfNotLoaded: true } } : { sentinelConfig };

  it("loads a sentinel file whose prompt is relative to the file", () => {
    const report = run(hankOf([codon("a", { sentinels: [entry("sentinels/ok.json", true)] })]), {
      hankDir: dir,
    });
    assert.deepEqual(report.issues, []);
  });

  it("reports load problems as errors with failCodonIfNotLoaded and as warnings without", () => {
    const sentinels = [
      entry("sentinels/missing.json", true),
      entry("sentinels/broken.json"),
      entry("sentinels/schema.json", true),
    ];
    const report = run(hankOf([codon("a", { sentinels })]), { hankDir: dir });
    const at = (k: number) => ["hank", 0, "sentinels", k, "sentinelConfig"];
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "ref-not-found",
        path: at(0),
        message: 'sentinelConfig "sentinels/missing.json" does not exist',
      },
      {
        severity: "warning",
        code: "sentinel-json-invalid",
        path: at(1),
        message: `sentinelConfig "sentinels/broken.json" is not valid JSON (line 1, column 14): Trailing comma before '}'`,
      },
      {
        severity: "error",
        code: "invalid-format",
        path: [...at(2), "id"],
        message: "Sentinel id must use only lowercase letters, digits and '-'",
      },
    ]);
    assert.equal(report.issues[2]?.file, path.join(dir, "sentinels", "schema.json"));
  });

  it("checks prompt forms, model and duplicate ids of inline configs", () => {
    const sentinels = [
      entry({
        ...base,
        id: "s",
        userPromptText: "x",
        conversational: { trimmingStrategy: { type: "maxTurns", maxTurns: 5 } },
      }),
      entry({ ...base, id: "s", model: "nope-model-zz" }, true),
    ];
    const report = run(hankOf([codon("a", { sentinels })]), { hankDir: dir });
    assert.deepEqual(
      report.issues.map((i) => [i.severity, i.code, i.path.slice(3).join(".")]),
      [
        ["warning", "sentinel-conversational-without-system-prompt", "0.sentinelConfig.conversational"],
        ["error", "sentinel-missing-prompt", "1.sentinelConfig"],
        ["error", "sentinel-invalid-model", "1.sentinelConfig.model"],
        ["error", "sentinel-duplicate-id", "1.sentinelConfig.id"],
      ],
    );
    assert.equal(report.issues[3]?.message, 'Duplicate sentinel id "s" in codon "a"');
  });
});
