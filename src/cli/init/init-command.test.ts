import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadValidatedHank } from "../../runner/index.ts";
import { initHank } from "./init-command.ts";
import { welcomeText } from "./welcome.ts";

describe("initHank", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hankweave-init-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("scaffolds a hank with a codon, a loop, prompts, data, README, .gitignore and $schema", () => {
    const outcome = initHank(dir);
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    assert.match(
      outcome.stdout,
      new RegExp(`^✅ Initialized hank in ${dir}\nCreated files:\n {2}hank\\.json\n`),
    );
    assert.deepEqual(readdirSync(dir).sort(), [".gitignore", "README.md", "data", "hank.json", "prompts"]);
    const hank = JSON.parse(readFileSync(join(dir, "hank.json"), "utf8")) as Record<string, unknown>;
    assert.match(String(hank.$schema), /hank\.schema\.json$/);
    assert.match(readFileSync(join(dir, ".gitignore"), "utf8"), /^\.hankweave\/$/m);
  });

  it("writes a hank that validates clean (not even a warning), with real models and with -m scripted", () => {
    initHank(dir);
    for (const model of [undefined, "scripted"]) {
      const loaded = loadValidatedHank({ hank: dir, cwd: dir, env: {}, ...(model && { model }) });
      assert.equal(loaded.ok, true, JSON.stringify(loaded));
      if (loaded.ok) assert.deepEqual(loaded.report.issues, [], JSON.stringify(loaded.report.issues));
    }
  });

  it("refuses a directory with any entry, even .git, and writes nothing", () => {
    mkdirSync(join(dir, ".git"));
    const outcome = initHank(dir);
    assert.equal(outcome.exitCode, 1);
    assert.equal(
      outcome.stderr,
      `Init failed: Directory ${dir} is not empty. Please run init in an empty directory or specify a new directory.\n`,
    );
    assert.deepEqual(readdirSync(dir), [".git"]);
  });
});

describe("welcomeText", () => {
  it("points to --init and the examples", () => {
    const text = welcomeText("1.2.3");
    assert.match(text, /^Welcome to hankweave 1\.2\.3\./);
    assert.match(text, /hankweave --init/);
    assert.match(text, /examples\/hello/);
  });
});
