import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { cliCommand } from "../fixtures/hankweave-cli.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function hankweave(args: readonly string[], env: Record<string, string>, cwd = ROOT): Ran {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...base } = process.env;
  const run = spawnSync(process.execPath, [...cliCommand(), ...args], {
    cwd,
    env: { ...base, ...env, NO_COLOR: "1", COLUMNS: "200" },
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function writeHank(dir: string, hank: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hank.json"), JSON.stringify(hank, null, 2));
  return dir;
}

describe("hankweave <hank> --headless", () => {
  let base: string;
  let env: Record<string, string>;
  before(() => {
    base = mkdtempSync(join(tmpdir(), "hw-cli-run-"));
    env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(base, "executions") };
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("runs the bundled loop example to completion, then says there is nothing to do", () => {
    const first = hankweave(["examples/revise-loop", "--headless"], env);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, "");
    assert.match(first.stderr, /✓ revise#2/);
    assert.match(first.stderr, /loop revise-loop iteration 3 of 3 done .* loop ended \(iteration_limit\)/);
    assert.match(first.stderr, /✓ Run completed: 7 codon\(s\) completed/);
    const executions = readdirSync(join(base, "executions"));
    assert.equal(executions.length, 1);
    const exec = join(base, "executions", executions[0] ?? "");
    const note = readFileSync(join(exec, "agentRoot", "release-note.md"), "utf8");
    assert.ok(note.length > 0);
    assert.ok(existsSync(join(exec, ".hankweave", "events", "events.jsonl")));
    assert.ok(existsSync(join(exec, ".hankweave", "state.json")));
    assert.ok(existsSync(join(exec, ".hankweave", "checkpoints", ".hankweavecheckpoints")));

    const second = hankweave(["examples/revise-loop", "--headless"], env);
    assert.equal(second.status, 0, second.stderr);
    assert.match(
      second.stderr,
      /nothing to do\. All codons already completed\. Use --start-new to run fresh\./,
    );
  });

  it("refuses an invalid hank with the validator's report and creates nothing", () => {
    const dir = writeHank(join(base, "invalid"), {
      hank: [
        {
          id: "a",
          name: "A",
          model: "scripted",
          continuationMode: "fresh",
          promptText: "x",
          trackedFiles: [],
        },
      ],
    });
    const ran = hankweave([dir, "--headless"], { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(base, "none") });
    assert.equal(ran.status, 1);
    assert.match(ran.stderr, /Unknown field "trackedFiles"\. Did you mean "checkpointedFiles"\?/);
    assert.equal(existsSync(join(base, "none")), false);
  });

  it("fails fast with exit 1 on a retriable failure under abort in headless mode (scenario 11)", () => {
    const dir = writeHank(join(base, "transient"), {
      hank: [
        {
          id: "flaky",
          name: "Flaky",
          model: "scripted",
          continuationMode: "fresh",
          promptText: "@fail API Error: 500 Internal Server Error (overloaded_error)",
        },
        {
          id: "after",
          name: "After",
          model: "scripted",
          continuationMode: "fresh",
          promptText: "@say never",
        },
      ],
    });
    const ran = hankweave([dir, "--headless"], env);
    assert.equal(ran.status, 1);
    assert.match(ran.stderr, /✗ flaky .* failed: .*500 Internal Server Error/);
    assert.match(ran.stderr, /retriable, but onFailure is 'abort' and --headless has no client to retry it/);
    assert.doesNotMatch(ran.stderr, /> after:/);
  });
});
