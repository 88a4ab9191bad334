import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scanArgv } from "./scan-argv.ts";

describe("scanArgv", () => {
  it("rewrites flags to their long names and puts positionals after --", () => {
    assert.deepEqual(scanArgv(["-v", "hank.json", "-m", "haiku", "data"]), {
      ok: true,
      args: ["--validate", "--model", "haiku", "--", "hank.json", "data"],
      warnings: [],
    });
  });

  it("rejects an unknown flag with the reference text", () => {
    assert.deepEqual(scanArgv(["--bogus"]), {
      ok: false,
      message: "Unknown argument '--bogus'. Run with --help for available options.",
    });
    assert.deepEqual(scanArgv(["-z"]), {
      ok: false,
      message: "Unknown argument '-z'. Run with --help for available options.",
    });
  });

  it("rejects a value given to a boolean flag", () => {
    assert.deepEqual(scanArgv(["--headless=yes"]), {
      ok: false,
      message: "Flag '--headless' does not take a value.",
    });
  });

  it("rejects a value flag without a value, at the end or before another flag", () => {
    assert.deepEqual(scanArgv(["--max-cost"]), { ok: false, message: "Flag '--max-cost' requires a value." });
    assert.deepEqual(scanArgv(["-m", "-v"]), { ok: false, message: "Flag '-m' requires a value." });
    assert.deepEqual(scanArgv(["--output="]), { ok: false, message: "Flag '--output' requires a value." });
    assert.deepEqual(scanArgv(["--data", ""]), { ok: false, message: "Flag '--data' requires a value." });
  });

  it("accepts --flag=value with a deprecation warning", () => {
    assert.deepEqual(scanArgv(["--max-cost=5"]), {
      ok: true,
      args: ["--max-cost", "5"],
      warnings: ["! --max-cost=5 still works but is deprecated; write --max-cost 5 instead."],
    });
  });

  it("maps aliases and deprecated spellings to the canonical flag", () => {
    assert.deepEqual(scanArgv(["--new", "--ignore-data-mismatch"]), {
      ok: true,
      args: ["--start-new", "--force"],
      warnings: ["! --ignore-data-mismatch is deprecated; use --force instead."],
    });
  });

  it("expands grouped boolean short flags, and only those", () => {
    assert.deepEqual(scanArgv(["-yf"]), { ok: true, args: ["--yes", "--force"], warnings: [] });
    assert.deepEqual(scanArgv(["-ym"]), {
      ok: false,
      message: "Unknown argument '-ym'. Run with --help for available options.",
    });
  });

  it("refuses flags whose feature is not available yet, naming the flag", () => {
    const refusal = scanArgv(["--anthropic-base-url", "http://localhost:1"]);
    assert.equal(refusal.ok, false);
    assert.match(
      refusal.ok ? "" : refusal.message,
      /^Flag '--anthropic-base-url' is not planned: hankweave calls /,
    );
  });

  it("treats - as a positional and everything after -- as positionals", () => {
    assert.deepEqual(scanArgv(["-", "--", "--odd-name"]), {
      ok: true,
      args: ["--", "-", "--odd-name"],
      warnings: [],
    });
  });
});
