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

describe("sentinel checks: triggers, conditions and outputs", () => {
  const entry = (config: Record<string, unknown>, settings?: Record<string, unknown>) => ({
    sentinelConfig: { ...base, id: "s", userPromptText: "x", ...config },
    ...(settings !== undefined && { settings: { failCodonIfNotLoaded: true, ...settings } }),
  });
  const issuesOf = (sentinels: unknown[]) =>
    run(hankOf([codon("a", { sentinels })])).issues.map((i) => [i.code, i.path.slice(4).join(".")]);

  it("names unknown, sentinel and connection event types, with a suggestion for a typo", () => {
    const trigger = { type: "event", on: ["file.update", "sentinel.output", "pong", "*", "tool.result"] };
    const report = run(hankOf([codon("a", { sentinels: [entry({ trigger })] })]));
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.slice(4).join(".")]),
      [
        ["sentinel-event-type-unknown", "sentinelConfig.trigger.on.0"],
        ["sentinel-event-type-never-seen", "sentinelConfig.trigger.on.1"],
        ["sentinel-event-type-never-seen", "sentinelConfig.trigger.on.2"],
      ],
    );
    assert.equal(report.issues[0]?.hint, 'Did you mean "file.updated"?');
  });

  it("checks condition paths against the payloads of the listed types", () => {
    const conditions = [
      { path: "toolName", operator: "equals", value: "Bash" },
      { path: "source.toolUseId", operator: "contains", value: "t" },
      { path: "toolInput.command", operator: "matches", value: "rm -rf" },
      { path: "nope.deep", operator: "equals", value: 1 },
      { path: "isError", operator: "matches", value: "(" },
    ];
    const trigger = { type: "event", on: ["tool.result", "file.updated", "assistant.action"], conditions };
    const report = run(hankOf([codon("a", { sentinels: [entry({ trigger })] })]));
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.slice(4).join(".")]),
      [
        ["sentinel-condition-path", "sentinelConfig.trigger.conditions.3.path"],
        ["sentinel-condition-regex", "sentinelConfig.trigger.conditions.4.value"],
      ],
    );
    assert.match(report.issues[0]?.message ?? "", /condition path "nope.deep" cannot exist/);
    assert.match(report.issues[0]?.hint ?? "", /tool\.result: codonId, toolUseId, toolName/);
  });

  it("skips path checks under a wildcard and rejects operator values of the wrong type", () => {
    const wildcard = {
      type: "event",
      on: ["*"],
      conditions: [{ path: "any.thing", operator: "equals", value: 1 }],
    };
    assert.deepEqual(issuesOf([entry({ trigger: wildcard })]), []);
    const wrong = {
      type: "event",
      on: ["token.usage"],
      conditions: [{ path: "totalCost", operator: "greaterThan", value: "1" }],
    };
    const codes = issuesOf([entry({ trigger: wrong })]).map(([code]) => code);
    assert.ok(codes.length > 0 && codes.every((code) => code !== "sentinel-condition-path"), String(codes));
  });

  it("checks sequence steps against the interest filter and their own type", () => {
    const trigger = {
      type: "sequence",
      interestFilter: { on: ["tool.result"] },
      pattern: [
        { type: "tool.result", conditions: [{ path: "isError", operator: "equals", value: true }] },
        { type: "file.updated" },
        { type: "tool.result", conditions: [{ path: "action", operator: "equals", value: "created" }] },
      ],
    };
    assert.deepEqual(issuesOf([entry({ trigger })]), [
      ["sentinel-pattern-outside-interest", "sentinelConfig.trigger.pattern.1.type"],
      ["sentinel-condition-path", "sentinelConfig.trigger.pattern.2.conditions.0.path"],
    ]);
  });

  it("checks the structured output form, joinString and output file names", () => {
    const sentinels = [
      entry({ structuredOutput: { output: "enum", schemaStr: "{}" }, joinString: "--" }),
      entry(
        { id: "t", structuredOutput: { output: "object", schemaStr: '{"type":"object"}' } },
        { outputPaths: { logFile: "notes.md", lastValueFile: "../out.json" } },
      ),
      entry(
        { id: "u", output: { format: "jsonl", file: "log.txt" } },
        { outputPaths: { lastValueFile: "last.txt" } },
      ),
    ];
    const report = run(hankOf([codon("a", { sentinels })]));
    assert.deepEqual(
      report.issues.map((i) => [i.code, i.path.slice(3).join(".")]),
      [
        ["sentinel-join-string-structured", "0.sentinelConfig.joinString"],
        ["sentinel-structured-output-form", "0.sentinelConfig.structuredOutput"],
        ["sentinel-output-extension", "1.settings.outputPaths.logFile"],
        ["sentinel-output-path", "1.settings.outputPaths.lastValueFile"],
        ["sentinel-output-extension", "2.sentinelConfig.output.file"],
      ],
    );
  });
});

describe("sentinel checks: prompt templates", () => {
  it("reports a prompt that is not a valid Eta template, text or file", () => {
    const sentinels = [
      {
        sentinelConfig: {
          ...base,
          id: "t",
          userPromptText: "<% if ( %>",
          systemPromptText: "ok <%= it.codon.id %>",
        },
      },
    ];
    const report = run(hankOf([codon("a", { sentinels })]));
    assert.deepEqual(
      report.issues.map((i) => [i.severity, i.code, i.path.slice(3).join(".")]),
      [["warning", "sentinel-template-syntax", "0.sentinelConfig.userPromptText"]],
    );
    assert.match(report.issues[0]?.message ?? "", /^Sentinel "t": the prompt is not a valid Eta template: /);
  });
});
