import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { spanTreeLines, startOtlpReceiver } from "../../src/testing/index.ts";

/**
 * The package's `bin` is the bundle `npm run build` makes (scripts/bundle-cli.mjs), not the modules the
 * other CLI tests run from src/. These tests run the bundle itself, so a dependency or a file it reads
 * that bundling lost shows up here. They need a build first, as the README's quick start does.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  bin: { hankweave: string };
};
const BIN = join(ROOT, PACKAGE.bin.hankweave);

function bin(args: readonly string[], env: Record<string, string> = {}) {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...base } = process.env;
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...base, ...env, NO_COLOR: "1", COLUMNS: "200" },
    encoding: "utf8",
  });
}

describe("the built hankweave bin", () => {
  let base: string;
  before(() => {
    assert.ok(existsSync(BIN), `${PACKAGE.bin.hankweave} is missing: run \`npm run build\` before the tests`);
    base = mkdtempSync(join(tmpdir(), "hw-bin-"));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("reports the package version", () => {
    const run = bin(["--version"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), PACKAGE.version);
  });

  it("resolves catalog models when validating", () => {
    const run = bin(["examples/hello", "--validate", "-m", "sonnet"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /GOOD TO RUN!/);
  });

  it("opens a Loops store through the bundled query builder and lists its runs", () => {
    // kysely is bundled into an ES module of its own beside the bin (scripts/bundle-cli.mjs, VENDORED);
    // libsql stays external.
    const run = bin(["loops", "--db", join(base, "loops.db"), "ls"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^RUN\s+LOOP\s+STATE/m);
  });

  it("runs the loop example headless with the scripted agent", () => {
    const run = bin(["examples/revise-loop", "--headless", "-e", join(base, "exec")]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /✓ Run completed: 7 codon\(s\) completed/);
  });

  it("draws the terminal UI on a terminal, with ink and React from the modules beside the bin", {
    skip: spawnSync("script", ["--version"]).status !== 0 && "util-linux's script (a terminal) is missing",
  }, async () => {
    // `script` gives the bin a pseudo-terminal, so it starts the TUI; q twice quits once the run is done.
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    const command = `${process.execPath} ${BIN} examples/hello -e ${join(base, "tui")}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: ROOT,
      env: { ...env, COLUMNS: "100", LINES: "40" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let screen = "";
    let quitting: NodeJS.Timeout | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk;
      // One key a read: q, then q again (a second q forces the quit) until the process is gone.
      if (quitting === undefined && /Run Complete/.test(screen))
        quitting = setInterval(() => child.stdin.writable && child.stdin.write("q"), 500);
    });
    const giveUp = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const [code] = await once(child, "exit");
    clearInterval(quitting);
    clearTimeout(giveUp);
    assert.equal(code, 0, screen);
    assert.match(screen, /2 codon\(s\) completed, 0 failed, 0 ignored/);
  });

  it("traces a run from its tracing thread, whose entry sits beside the chunks", async () => {
    assert.ok(existsSync(join(ROOT, "dist", "cli", "trace-worker.js")), "dist/cli/trace-worker.js");
    const receiver = await startOtlpReceiver();
    try {
      const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
      const child = spawn(
        process.execPath,
        [BIN, "examples/revise-loop", "--headless", "-e", join(base, "traced")],
        { cwd: ROOT, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }, stdio: "ignore" },
      );
      const [code] = await once(child, "exit");
      assert.equal(code, 0);
      // The run's end waits for the export: every span is in when the process exits.
      const lines = spanTreeLines(receiver.spans);
      assert.deepEqual(lines.slice(0, 5), [
        "hankweave.run",
        "  codon draft",
        "    attempt 1",
        "      chat scripted",
        "        execute_tool Write",
      ]);
      assert.equal(lines.filter((line) => line.startsWith("  codon ")).length, 7);
    } finally {
      await receiver.close();
    }
  });
});

/**
 * The README's "Getting hankweave on your PATH", as a user from a clone follows it: `npm link` (here
 * into a private prefix, so the machine's own global packages are left alone) puts `hankweave` on
 * PATH; `npx hankweave` runs it from inside the clone without linking.
 */
describe("hankweave on PATH from a clone", () => {
  let prefix: string;
  before(() => {
    assert.ok(existsSync(BIN), `${PACKAGE.bin.hankweave} is missing: run \`npm run build\` before the tests`);
    prefix = mkdtempSync(join(tmpdir(), "hw-prefix-"));
  });
  after(() => rmSync(prefix, { recursive: true, force: true }));

  const npm = (args: readonly string[], env: Record<string, string> = {}) =>
    spawnSync("npm", [...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" });

  it("npm link puts hankweave on PATH", () => {
    const linked = npm(["link", "--no-audit", "--no-fund"], { npm_config_prefix: prefix });
    assert.equal(linked.status, 0, linked.stderr);
    const path = `${join(prefix, "bin")}:${process.env.PATH ?? ""}`;
    const run = spawnSync("hankweave", ["--version"], {
      cwd: tmpdir(),
      env: { ...process.env, PATH: path },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), PACKAGE.version);
  });

  it("npx hankweave runs it inside the clone without linking", () => {
    const run = npm(["exec", "--no", "--", "hankweave", "--version"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), PACKAGE.version);
  });

  it("the README says so, and keeps its Quick start's two commands", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.match(
      readme,
      /## Quick start\n\n```sh\nnpm ci && npm run build && node dist\/cli\/hankweave\.cjs examples\/revise-loop --headless\nnpm test\n```/,
    );
    for (const way of ["`npm link`", "`npx hankweave ...`", "`npm i -g hankweave`"])
      assert.ok(readme.includes(way), way);
  });
});
