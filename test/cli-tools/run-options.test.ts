import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseArgs } from "../../src/cli/parse-args.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { captureIo } from "./capture-io.ts";

/**
 * `-i` (inline data into the inputs cache), `--no-wipe` and `--cleanup`, in process through `runCli`
 * on a one-codon scripted hank that copies its data into the workspace.
 */
describe("inline input, --no-wipe and --cleanup", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-run-options-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const hankDir = join(root, "hank");
  const execution = join(root, "exec");
  const env = { HANKWEAVE_RUNTIME_CACHE_DIR: join(root, "cache") };
  mkdirSync(hankDir);
  const prompt = "@run cat <%DATA_DIR%>/input.txt > copy.txt\n@say copied";
  const codon = {
    id: "copy",
    name: "Copy",
    model: "scripted",
    continuationMode: "fresh",
    promptText: prompt,
  };
  writeFileSync(
    join(hankDir, "hank.json"),
    JSON.stringify({ hank: [{ ...codon, checkpointedFiles: ["copy.txt"] }] }),
  );
  const agentFile = (name: string) => join(execution, "agentRoot", name);

  it("runs on -i text: the data is the text's entry in the inputs cache", async () => {
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli([hankDir, "-i", "inline words", "-e", execution, "--headless"], io), 0, err());
    assert.equal(readFileSync(agentFile("copy.txt"), "utf8"), "inline words");
  });

  it("--start-new --force --no-wipe keeps agentRoot/", async () => {
    writeFileSync(agentFile("keep.txt"), "mine");
    const { io, err } = captureIo(root, env);
    const args = [hankDir, "-i", "second", "-e", execution, "--headless", "-n", "-f", "--no-wipe"];
    assert.equal(await runCli(args, io), 0, err());
    assert.equal(readFileSync(agentFile("keep.txt"), "utf8"), "mine");
    assert.equal(readFileSync(agentFile("copy.txt"), "utf8"), "second");
  });

  it("--cleanup lists first, removes only with -y", async () => {
    const dry = captureIo(root, env);
    assert.equal(await runCli(["--cleanup", "-e", execution], dry.io), 0);
    assert.match(
      dry.out(),
      new RegExp(`^Would remove \\(dry run; nothing was removed\\):\n {2}${execution} {2}\\d`),
    );
    assert.match(dry.out(), /Run again with -y to remove them\.\n$/);
    assert.equal(existsSync(execution), true);
    const real = captureIo(root, env);
    assert.equal(await runCli(["--cleanup", "-e", execution, "-y"], real.io), 0, real.err());
    assert.equal(real.out(), `✓ Removed ${execution}\n`);
    assert.equal(existsSync(execution), false);
  });
});

describe("parsing the server and cleanup flags", () => {
  const message = (argv: string[]) => {
    const parsed = parseArgs(argv, "/work");
    return parsed.ok ? "" : parsed.message;
  };
  it("validates --idle-timeout as whole seconds 0-255", () => {
    assert.equal(
      message(["--idle-timeout", "256"]),
      "Invalid --idle-timeout value: '256'. Expected a whole number of seconds from 0 to 255 (0: never).",
    );
    const parsed = parseArgs(["h.json", "--idle-timeout", "30", "--no-autostart", "--no-wipe"], "/work");
    assert.equal(parsed.ok && parsed.command.kind === "run", true);
    if (parsed.ok && parsed.command.kind === "run") {
      const { idleTimeout, noAutostart, noWipe } = parsed.command.options;
      assert.deepEqual(
        { idleTimeout, noAutostart, noWipe },
        { idleTimeout: 30, noAutostart: true, noWipe: true },
      );
    }
  });
  it("--cleanup takes no positional", () => {
    assert.equal(message(["--cleanup", "x"]), "--cleanup takes no positional; name one execution with -e.");
  });
});
