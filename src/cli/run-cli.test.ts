import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { CliIo } from "./cli-io.ts";
import { runCli } from "./run-cli.ts";

const fixtureDir = fileURLToPath(new URL("../../test/fixtures/minimal-loop", import.meta.url));

function capture(
  env: Record<string, string> = {},
  cwd = "/nowhere",
): { io: CliIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const io: CliIo = {
    cwd,
    env,
    stdout: {
      write: (text) => {
        out += text;
      },
      isTTY: false,
      columns: undefined,
    },
    stderr: {
      write: (text) => {
        err += text;
      },
      isTTY: false,
      columns: undefined,
    },
    runtime: { version: "9.8.7", platform: "linux", arch: "x64", nodeVersion: "v20.0.0" },
  };
  return { io, out: () => out, err: () => err };
}

describe("runCli", () => {
  it("prints the version", async () => {
    const { io, out, err } = capture();
    assert.equal(await runCli(["--version"], io), 0);
    assert.equal(out(), "9.8.7\n");
    assert.equal(err(), "");
  });

  it("prints help that lists the flags", async () => {
    const { io, out } = capture();
    assert.equal(await runCli(["-h"], io), 0);
    assert.match(out(), /^hankweave 9\.8\.7: /);
    assert.match(out(), /\n {2}-v, --validate {2,}Check the hank/);
    assert.match(out(), /\n {2}--max-cost <usd> {2,}Stop the run/);
    assert.match(
      out(),
      /Not planned \(accepted by name and refused, so old scripts fail clearly\):\n {2}--proxy/,
    );
  });

  it("writes parse errors to stderr and exits 1", async () => {
    const { io, out, err } = capture();
    assert.equal(await runCli(["--nope"], io), 1);
    assert.equal(out(), "");
    assert.equal(err(), "Unknown argument '--nope'. Run with --help for available options.\n");
  });

  it("prints deprecation warnings before going on", async () => {
    const { io, err } = capture();
    assert.equal(await runCli(["--model=haiku", "--version"], io), 0);
    assert.equal(err(), "! --model=haiku still works but is deprecated; write --model haiku instead.\n");
  });

  it("refuses to run a hank that does not exist, before creating anything", async () => {
    const { io, err } = capture();
    assert.equal(await runCli(["missing-hank.json", "--headless"], io), 1);
    assert.match(err(), /missing-hank\.json/);
  });

  it("keeps the validation report within COLUMNS when there is no terminal", async () => {
    const { io, out } = capture({ COLUMNS: "50" }, fixtureDir);
    assert.equal(await runCli(["--validate"], io), 0);
    const widest = Math.max(
      ...out()
        .split("\n")
        .map((line) => [...line].length),
    );
    assert.ok(widest <= 50, `widest line: ${widest}`);
    assert.ok(out().includes("GOOD TO RUN!"));
  });
});
