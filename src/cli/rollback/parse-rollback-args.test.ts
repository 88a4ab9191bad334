import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArgs } from "../parse-args.ts";

const CWD = "/work/here";

function command(argv: string[]) {
  const parsed = parseArgs(argv, CWD);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
  return parsed.command;
}

function message(argv: string[]): string {
  const parsed = parseArgs(argv, CWD);
  assert.ok(!parsed.ok);
  return parsed.message;
}

describe("hankweave rollback", () => {
  it("takes the target and the execution, resolved against the cwd", () => {
    const parsed = command(["rollback", "3f2a9c", "-e", "exec"]);
    assert.equal(parsed.kind, "rollback");
    if (parsed.kind !== "rollback") return;
    assert.equal(parsed.options.target, "3f2a9c");
    assert.equal(parsed.options.type, undefined);
    assert.equal(parsed.options.restart, false);
    assert.equal(parsed.options.run.execution, "/work/here/exec");
    assert.equal(parsed.options.run.hankFrom, "default");
  });

  it("takes --type and --restart anywhere, and passes run options on to the restart", () => {
    const parsed = command([
      "rollback",
      "--restart",
      "edit#1",
      "--type",
      "start",
      "-e",
      "/x",
      "-m",
      "scripted",
      "--headless",
    ]);
    assert.ok(parsed.kind === "rollback");
    assert.equal(parsed.options.target, "edit#1");
    assert.equal(parsed.options.type, "start");
    assert.equal(parsed.options.restart, true);
    assert.equal(parsed.options.run.model, "scripted");
    assert.equal(parsed.options.run.headless, true);
    const equals = command(["rollback", "a", "--type=end", "--execution", "/x"]);
    assert.ok(equals.kind === "rollback");
    assert.equal(equals.options.type, "end");
  });

  it("says what is missing or wrong", () => {
    assert.equal(
      message(["rollback", "-e", "/x"]),
      "Missing rollback target. Usage: hankweave rollback <target> -e <execution> [--type <type>] [--restart], or hankweave rollback --abandon -e <execution>",
    );
    assert.equal(
      message(["rollback", "a"]),
      "rollback needs the execution directory: -e <execution>. Usage: hankweave rollback <target> -e <execution> [--type <type>] [--restart], or hankweave rollback --abandon -e <execution>",
    );
    assert.equal(
      message(["rollback", "a", "--type", "middle", "-e", "/x"]),
      "Invalid --type value: 'middle'. Expected one of start, end, rig-setup, completed, error, skipped.",
    );
    assert.equal(
      message(["rollback", "last-success", "--type", "end", "-e", "/x"]),
      "--type names a checkpoint of a codon; it does not go with last-success.",
    );
    assert.equal(
      message(["rollback", "a", "b", "-e", "/x"]),
      "Too many arguments for rollback: 'b'. Usage: hankweave rollback <target> -e <execution> [--type <type>] [--restart], or hankweave rollback --abandon -e <execution>",
    );
    assert.equal(message(["rollback", "a", "--type"]), "Flag '--type' requires a value.");
    assert.equal(
      message(["rollback", "a", "--restart=yes", "-e", "/x"]),
      "Flag '--restart' does not take a value.",
    );
    assert.equal(
      message(["rollback", "a", "-e", "/x", "--nope"]),
      "Unknown argument '--nope'. Run with --help for available options.",
    );
  });

  it("prints its own help", () => {
    const parsed = command(["rollback", "--help"]);
    assert.ok(parsed.kind === "subcommand-help");
    assert.match(parsed.text, /^hankweave rollback: /);
  });
});

describe("hankweave checkpoints", () => {
  it("takes the execution and --json", () => {
    const parsed = command(["checkpoints", "-e", "exec", "--json"]);
    assert.deepEqual(parsed, { kind: "checkpoints", options: { execution: "/work/here/exec", json: true } });
    const equals = command(["checkpoints", "--execution=/abs"]);
    assert.deepEqual(equals, { kind: "checkpoints", options: { execution: "/abs", json: false } });
  });

  it("refuses anything else", () => {
    assert.equal(
      message(["checkpoints"]),
      "checkpoints needs the execution directory: -e <execution>. Usage: hankweave checkpoints -e <execution> [--json]",
    );
    assert.equal(
      message(["checkpoints", "-e", "/x", "--headless"]),
      "Unknown argument '--headless' for checkpoints. Usage: hankweave checkpoints -e <execution> [--json]",
    );
  });
});
