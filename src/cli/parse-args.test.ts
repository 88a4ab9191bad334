import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseArgs } from "./parse-args.ts";

describe("parseArgs", () => {
  let cwd = "";
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), "hankweave-parse-args-"));
    mkdirSync(join(cwd, "project"));
    writeFileSync(join(cwd, "project", "hank.json"), "{}");
    mkdirSync(join(cwd, "data"));
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it("defaults to hank.json in the cwd with every switch off", () => {
    assert.deepEqual(parseArgs(["--validate"], cwd), {
      ok: true,
      command: {
        kind: "validate",
        options: {
          hankPath: join(cwd, "hank.json"),
          hankFrom: "default",
          startNew: false,
          force: false,
          yes: false,
          headless: false,
          json: false,
          overwriteOutput: false,
          copy: false,
          ignoreRigFailures: false,
        },
      },
      warnings: [],
    });
  });

  it("reads the run options into typed values with absolute paths", () => {
    const argv = [
      "custom.json",
      "data",
      "--headless",
      "--max-cost",
      "2.5",
      "--max-time",
      "600",
      "-e",
      "exec",
    ];
    argv.push("-n", "-f", "-y", "-o", "out", "--overwrite-output", "--copy", "--ignore-rig-failures");
    argv.push("--shim-idle-timeout", "300", "-m", "scripted");
    assert.deepEqual(parseArgs(argv, cwd), {
      ok: true,
      command: {
        kind: "run",
        options: {
          hankPath: join(cwd, "custom.json"),
          hankFrom: "argument",
          dataPath: join(cwd, "data"),
          model: "scripted",
          execution: join(cwd, "exec"),
          output: join(cwd, "out"),
          maxCost: 2.5,
          maxTime: 600,
          shimIdleTimeout: 300,
          startNew: true,
          force: true,
          yes: true,
          headless: true,
          json: false,
          overwriteOutput: true,
          copy: true,
          ignoreRigFailures: true,
        },
      },
      warnings: [],
    });
  });

  it("takes a directory holding hank.json as the hank, another lone path as the data", () => {
    const hank = parseArgs(["-v", "project"], cwd);
    assert.equal(
      hank.ok && hank.command.kind === "validate" && hank.command.options.hankPath,
      join(cwd, "project"),
    );
    const data = parseArgs(["-v", "data"], cwd);
    assert.equal(
      data.ok && data.command.kind === "validate" && data.command.options.dataPath,
      join(cwd, "data"),
    );
  });

  it("uses --config for the hank and a lone positional as the data", () => {
    const parsed = parseArgs(["--config", "project", "other.json"], cwd);
    assert.ok(parsed.ok && parsed.command.kind === "run");
    assert.equal(parsed.command.options.hankPath, join(cwd, "project"));
    assert.equal(parsed.command.options.dataPath, join(cwd, "other.json"));
  });

  it("rejects a path given twice", () => {
    assert.deepEqual(parseArgs(["a.json", "data", "--config", "b.json"], cwd), {
      ok: false,
      message: "The hank is given twice: 'a.json' and --config 'b.json'. Use one of them.",
      warnings: [],
    });
    assert.deepEqual(parseArgs(["a.json", "data", "--data", "d2"], cwd), {
      ok: false,
      message: `The data source is given twice: '${join(cwd, "data")}' and --data 'd2'. Use one of them.`,
      warnings: [],
    });
  });

  it("rejects more than two positionals with the reference text", () => {
    assert.deepEqual(parseArgs(["a.json", "b", "c"], cwd), {
      ok: false,
      message: "Too many positional arguments. Expected at most 2 (hank-path, data-path), got 3.",
      warnings: [],
    });
  });

  it("rejects a non-positive --max-cost and a bad --max-time", () => {
    assert.deepEqual(parseArgs(["--max-cost", "0"], cwd), {
      ok: false,
      message: "Invalid --max-cost value: '0'. Expected a positive number of US dollars, e.g. --max-cost 5.",
      warnings: [],
    });
    assert.deepEqual(parseArgs(["--max-time=abc"], cwd), {
      ok: false,
      message:
        "Invalid --max-time value: 'abc'. Expected a positive number of seconds, e.g. --max-time 3600.",
      warnings: ["! --max-time=abc still works but is deprecated; write --max-time abc instead."],
    });
  });

  it("bounds --shim-idle-timeout to whole seconds from 1 to 1800", () => {
    assert.deepEqual(parseArgs(["--shim-idle-timeout", "1801"], cwd), {
      ok: false,
      message:
        "Invalid --shim-idle-timeout value: '1801'. Expected a whole number of seconds from 1 to 1800.",
      warnings: [],
    });
  });

  it("gives help and version precedence over everything else", () => {
    assert.deepEqual(parseArgs(["-v", "--help"], cwd), { ok: true, command: { kind: "help" }, warnings: [] });
    assert.deepEqual(parseArgs(["--version", "x.json"], cwd), {
      ok: true,
      command: { kind: "version" },
      warnings: [],
    });
  });

  it("hands `pack ...` to the pack command, and refuses pack anywhere but first", () => {
    assert.deepEqual(parseArgs(["pack", "--check"], cwd), {
      ok: true,
      command: { kind: "pack", argv: ["--check"] },
      warnings: [],
    });
    assert.deepEqual(parseArgs(["-m", "scripted", "pack"], cwd), {
      ok: false,
      message:
        "'pack' is a command: write it first (hankweave pack [hank] [options]). A data directory named pack is written ./pack.",
      warnings: [],
    });
  });
});
