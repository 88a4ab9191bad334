import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const main = join(root, "src/cli/main.ts");
const tsx = import.meta.resolve("tsx");
const fixture = join(root, "test/fixtures/minimal-loop");

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe("hankweave --validate (spawned CLI)", () => {
  let base = "";
  let cwd = "";
  let home = "";

  /** Runs the CLI from source, as a user would, with a minimal environment and a throwaway HOME. */
  function cli(args: readonly string[], extraEnv: Record<string, string> = {}): Run {
    const env = { PATH: process.env.PATH ?? "", HOME: home, ...extraEnv };
    const result = spawnSync(process.execPath, ["--import", tsx, main, ...args], {
      cwd,
      env,
      encoding: "utf8",
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  function listing(dir: string): string[] {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
  }

  before(() => {
    base = mkdtempSync(join(tmpdir(), "hankweave-cli-validate-"));
    cwd = join(base, "work");
    home = join(base, "home");
    mkdirSync(home);
    cpSync(fixture, cwd, { recursive: true });
    mkdirSync(join(cwd, "broken"));
    const codon = { id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "hi" };
    writeFileSync(
      join(cwd, "broken", "hank.json"),
      JSON.stringify({ hank: [{ ...codon, trackedFiles: ["x"] }] }),
    );
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("validates the minimal loop fixture and prints its plan", () => {
    const run = cli(["--validate"], { HANKWEAVE_CAPTURE_VERSION: "0.10.0" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, "");
    assert.match(run.stdout, /> Validating hank\.json\n✓ The hank is valid/);
    assert.match(run.stdout, /\[1\] LOOP: append-loop \(Append loop\) × 2 iterations\n/);
    assert.match(run.stdout, /\[1\.1\] append-a \(Codon A appends\)\n/);
    assert.match(run.stdout, /\[1\.2\] append-b \(Codon B appends\)\n/);
    assert.match(run.stdout, /prompts: 1 \(2 lines\)/);
    assert.match(run.stdout, /─ GOOD TO RUN! ─/);
    assert.match(run.stdout, /│ 2 codons • 2 prompts • 0 system prompts • 0 rigs • 2 checkpoints │/);
    assert.match(run.stdout, /\nRun it: hankweave hank\.json\n/);
    assert.match(run.stdout, /\n {2}- CAPTURE_VERSION: 0\.10\.0\n/);
    assert.equal(run.stdout.includes("\u001b["), false, "no colour when stdout is not a terminal");
  });

  it("creates no file or directory in the cwd or HOME", () => {
    const before = { cwd: listing(cwd), home: listing(home) };
    assert.equal(cli(["-v", "hank.json"]).status, 0);
    assert.equal(cli(["-v", "broken"]).status, 1);
    assert.deepEqual({ cwd: listing(cwd), home: listing(home) }, before);
  });

  it("applies -m to every codon and repeats it in the run command", () => {
    const run = cli(["-v", join(cwd, "hank.json"), "-m", "scripted"]);
    assert.equal(run.status, 0, run.stdout);
    assert.equal(run.stdout.match(/model: scripted │ mode: fresh/g)?.length, 2);
    assert.match(run.stdout, /\nRun it: hankweave hank\.json -m scripted\n/);
  });

  /** The report with wrapped issue lines joined back, so that messages can be compared whole. */
  function unwrapped(text: string): string {
    return text.replace(/\n {4}/g, " ");
  }

  it("reports an invalid hank with the issue and its fix, and exits 1", () => {
    const run = cli(["-v", "broken"]);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /✗ The hank is not valid: 1 error\./);
    const text = unwrapped(run.stdout);
    assert.ok(
      text.includes(
        'Errors (1):\n  ✗ hank[0].trackedFiles: Unknown field "trackedFiles". Did you mean "checkpointedFiles"? Fix: ',
      ),
      text,
    );
    assert.doesNotMatch(run.stdout, /GOOD TO RUN/);
  });

  it("reports a missing hank with its path and a hint, and exits 1", () => {
    const run = cli(["-v", "missing.json"]);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /✗ The hank could not be loaded\./);
    const expected = "  ✗ missing.json: Hank file not found: missing.json Fix: Pass a hank .json file";
    assert.ok(unwrapped(run.stdout).includes(expected), run.stdout);
  });

  it("answers flag mistakes with the reference texts on stderr", () => {
    const cases: Array<[string[], string]> = [
      [["--bogus"], "Unknown argument '--bogus'. Run with --help for available options.\n"],
      [["-v=true"], "Flag '-v' does not take a value.\n"],
      [["--validate", "--model"], "Flag '--model' requires a value.\n"],
      [["--max-cost", "-1"], "Flag '--max-cost' requires a value.\n"],
      [
        ["--max-cost", "0"],
        "Invalid --max-cost value: '0'. Expected a positive number of US dollars, e.g. --max-cost 5.\n",
      ],
      [
        ["a.json", "b", "c"],
        "Too many positional arguments. Expected at most 2 (hank-path, data-path), got 3.\n",
      ],
    ];
    for (const [args, message] of cases) {
      const run = cli(args);
      assert.deepEqual([run.status, run.stdout, run.stderr], [1, "", message], args.join(" "));
    }
  });

  it("accepts --flag=value with a deprecation warning", () => {
    const run = cli(["-v", "--model=scripted"]);
    assert.equal(run.status, 0, run.stdout);
    assert.equal(
      run.stderr,
      "! --model=scripted still works but is deprecated; write --model scripted instead.\n",
    );
  });

  it("prints the package version", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    assert.deepEqual(cli(["--version"]), { status: 0, stdout: `${version}\n`, stderr: "" });
  });
});
