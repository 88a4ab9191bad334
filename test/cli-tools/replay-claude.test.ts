import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../../src/cli/run-cli.ts";
import {
  type FakeProviderServer,
  type FakeRequestView,
  startFakeAnthropic,
} from "../../src/testing/fake-providers/index.ts";
import { captureIo } from "./capture-io.ts";

function completed(execution: string): string[] {
  return readFileSync(join(execution, ".hankweave", "events", "events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"type":"codon.completed"'))
    .map((line) => (JSON.parse(line) as { data: { codonId: string; success: boolean; cost: number } }).data)
    .map((data) => `${data.codonId}:${data.success}:${data.cost}`);
}

function trees(execution: string): string[] {
  const gitDir = join(execution, ".hankweave", "checkpoints", ".hankweavecheckpoints");
  const git = (args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args]).toString();
  const run = git(["for-each-ref", "--format=%(refname)", "refs/heads/run/"]).trim().split("\n")[0] ?? "";
  return git(["log", "--reverse", "--first-parent", "--format=%T %s", run]).trim().split("\n");
}

/**
 * A run recorded through the real Claude Agent SDK (Claude Code against the fake Anthropic server),
 * then replayed after the fake server is gone and with no API key: the same outcomes and trees.
 */
describe("hankweave --replay of a Claude recording", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-replay-claude-"));
  const hankDir = join(root, "hank");
  const recording = join(root, "recording");
  const base = join(root, "executions");
  let fake: FakeProviderServer | undefined;
  after(async () => {
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  before(async () => {
    mkdirSync(hankDir);
    const codon = {
      id: "note",
      name: "Note",
      model: "haiku",
      continuationMode: "fresh",
      checkpointedFiles: ["*.md"],
    };
    writeFileSync(
      join(hankDir, "hank.json"),
      JSON.stringify({ hank: [{ ...codon, promptText: "Write notes.md" }] }),
    );
    fake = await startFakeAnthropic((request: FakeRequestView) =>
      request.step === 0 && request.tools.length > 0
        ? {
            type: "tool",
            calls: [{ tool: "bash", input: { command: "printf 'from the model\\n' > notes.md" } }],
          }
        : { type: "text", text: "Done." },
    );
    const env = {
      ANTHROPIC_BASE_URL: fake.baseUrl,
      ANTHROPIC_API_KEY: "recording-key",
      HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base,
    };
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli([hankDir, "-e", recording, "--headless"], io), 0, err());
    await fake.close();
    fake = undefined;
  });

  it("replays offline: same outcomes, same tree at every checkpoint", async () => {
    assert.equal(readFileSync(join(recording, "agentRoot", "notes.md"), "utf8"), "from the model\n");
    const { io, err } = captureIo(root, { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base });
    assert.equal(await runCli(["--replay", recording, "--headless"], io), 0, err());
    const replay = join(base, readdirSync(base)[0] ?? "");
    assert.deepEqual(completed(replay), completed(recording));
    assert.deepEqual(trees(replay), trees(recording));
    assert.equal(readFileSync(join(replay, "agentRoot", "notes.md"), "utf8"), "from the model\n");
  });
});
