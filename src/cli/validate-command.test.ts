import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CliOptions } from "./cli-options.ts";
import { runValidate } from "./validate-command.ts";

const cwd = mkdtempSync(join(tmpdir(), "hankweave-validate-command-"));
after(() => rmSync(cwd, { recursive: true, force: true }));
mkdirSync(join(cwd, "data"));

const environment = {
  cwd,
  env: { PATH: process.env.PATH ?? "" },
  runtime: { version: "0.1.0", platform: "linux", arch: "x64", nodeVersion: "v20.19.0" },
  render: { color: false, width: 200 },
};

function options(fields: Partial<CliOptions>): CliOptions {
  return {
    hankPath: join(cwd, "hank.json"),
    hankFrom: "argument",
    startNew: false,
    force: false,
    yes: false,
    headless: true,
    json: false,
    overwriteOutput: false,
    copy: false,
    ignoreRigFailures: false,
    ...fields,
  };
}

function writeHank(promptText: string, model = "scripted"): void {
  const codon = { id: "a", name: "A", model, continuationMode: "fresh", promptText };
  writeFileSync(join(cwd, "hank.json"), JSON.stringify({ hank: [codon] }));
}

describe("hankweave --validate", () => {
  it("reports a scripted prompt the agent would refuse, with the codon's path and the line", async () => {
    writeHank("Survey.\n@usage input=10\n@wirte notes.md x");
    const result = await runValidate(options({}), environment);
    assert.equal(result.exitCode, 1);
    assert.match(result.stdout, /hank\[0\]\.promptText/);
    assert.match(result.stdout, /refuse line 2 of this prompt: @usage needs input=<n> and output=<n>/);
    assert.match(
      result.stdout,
      /refuse line 3 of this prompt: Unknown directive @wirte; did you mean @write\?/,
    );
  });

  it("checks the script when -m scripted makes a codon scripted", async () => {
    writeHank("@usage input=10", "haiku");
    assert.doesNotMatch((await runValidate(options({}), environment)).stdout, /would refuse/);
    const overridden = await runValidate(options({ model: "scripted" }), environment);
    assert.equal(overridden.exitCode, 1);
    assert.match(overridden.stdout, /would refuse line 1 of this prompt/);
  });

  it("reports a data path that does not exist, as the user typed it", async () => {
    writeHank("hello");
    assert.equal((await runValidate(options({ dataPath: join(cwd, "data") }), environment)).exitCode, 0);
    const result = await runValidate(options({ dataPath: join(cwd, "dtaa") }), environment);
    assert.equal(result.exitCode, 1);
    assert.match(result.stdout, /The data source dtaa does not exist\./);
  });
});
