import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type FakeProviderServer,
  type FakeReply,
  type FakeRequestView,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../src/testing/fake-providers/index.ts";
import {
  findPiCli,
  piCommand,
  writePiAgentDir,
} from "../../src/testing/harness-conformance/targets/command-target.ts";
import { REPO_ROOT, runCli } from "../fixtures/hankweave-cli.ts";

/**
 * The bundled examples, run end to end by the real CLI (`hankweave <example> --headless -m <model>`)
 * through each harness: scripted, Claude (the real Claude Code against the fake Anthropic server), pi
 * (the pi SDK against the fake OpenAI server, configured by HANKWEAVE_PI_FAKE_* variables) and the
 * command harness (the pi CLI, configured by a hankweave.commands.json beside a copy of the example).
 */

const EXAMPLES = {
  hello: ["greet", "sign"],
  "revise-loop": ["draft", "critique#0", "revise#0", "critique#1", "revise#1", "critique#2", "revise#2"],
} as const;
type Example = keyof typeof EXAMPLES;

/** Workspace files each prompt names (`welcome.md`, not `docs/onboarding.md`): the fake model edits them. */
const FILE_NAMED = /(?<![\w./-])([a-z][\w-]*\.md)\b/g;

/**
 * The fake model of these runs: at the start of each turn it appends a line to every workspace file
 * its prompt names (so the files the examples copy out exist), then it answers "Done.".
 */
function exampleModel(request: FakeRequestView): FakeReply {
  const files = [...new Set([...request.prompt.matchAll(FILE_NAMED)].map((m) => m[1] ?? ""))];
  if (request.step > 0 || request.tools.length === 0 || files.length === 0)
    return { type: "text", text: "Done." };
  const command = files.map((file) => `echo 'edited by the fake model' >> ${file}`).join(" && ");
  return { type: "tool", calls: [{ tool: "bash", input: { command } }] };
}

interface ExampleRun {
  readonly code: number | null;
  readonly stderr: string;
  /** codon.completed of the run, as `<codonId>:<success>`. */
  readonly completed: readonly string[];
  readonly runStatus: string | undefined;
}

/** Runs `hankweave <dir> --headless -m <model>` in its own executions directory and reads the journal. */
async function runExample(dir: string, model: string, env: Record<string, string>): Promise<ExampleRun> {
  const base = mkdtempSync(join(tmpdir(), "hankweave-examples-"));
  try {
    const ran = await runCli([dir, "--headless", "-m", model], {
      env: { ...env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base },
    });
    const executions = readdirSync(base);
    assert.equal(executions.length, 1, ran.stderr);
    const journal = join(base, executions[0] ?? "", ".hankweave", "events", "events.jsonl");
    const events = readFileSync(journal, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    const completed = events
      .filter((e) => e.type === "codon.completed")
      .map((e) => `${String(e.data.codonId)}:${String(e.data.success)}`);
    const transitions = events.filter((e) => e.type === "state.transition").map((e) => e.data.transitionType);
    return { code: ran.code, stderr: ran.stderr, completed, runStatus: String(transitions.at(-1)) };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function assertRanThrough(run: ExampleRun, example: Example): void {
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.completed,
    EXAMPLES[example].map((id) => `${id}:true`),
  );
  assert.equal(run.runStatus, "RunCompleted");
}

const exampleDir = (example: Example): string => join(REPO_ROOT, "examples", example);

/**
 * The harnesses that start an agent process per codon (Claude Code, the pi CLI) take seconds a codon on
 * two cores: they run the small example only; the in-process ones run both. Their conformance suites
 * cover loops and resumes through the same processes.
 */
const PROCESS_HARNESS_EXAMPLES: readonly Example[] = ["hello"];

describe("examples through each harness, from the CLI", { concurrency: false }, () => {
  it("scripted (-m scripted)", async () => {
    for (const example of Object.keys(EXAMPLES) as Example[]) {
      assertRanThrough(await runExample(exampleDir(example), "scripted", {}), example);
    }
  });

  describe("with a fake Anthropic server", () => {
    let fake: FakeProviderServer;
    before(async () => {
      fake = await startFakeAnthropic(exampleModel);
    });
    after(() => fake.close());

    it("claude (-m haiku, ANTHROPIC_BASE_URL at the fake)", async () => {
      const env = { ANTHROPIC_BASE_URL: fake.baseUrl, ANTHROPIC_API_KEY: "examples-key" };
      for (const example of PROCESS_HARNESS_EXAMPLES) {
        assertRanThrough(await runExample(exampleDir(example), "haiku", env), example);
      }
    });
  });

  describe("with a fake OpenAI server", () => {
    let fake: FakeProviderServer;
    let work: string;
    before(async () => {
      fake = await startFakeOpenAI(exampleModel);
      work = mkdtempSync(join(tmpdir(), "hankweave-examples-work-"));
    });
    after(async () => {
      await fake.close();
      rmSync(work, { recursive: true, force: true });
    });

    it("pi (-m pi/fake/fake-model, HANKWEAVE_PI_FAKE_BASE_URL at the fake)", async () => {
      const env = { HANKWEAVE_PI_FAKE_BASE_URL: `${fake.baseUrl}/v1` };
      for (const example of Object.keys(EXAMPLES) as Example[]) {
        assertRanThrough(await runExample(exampleDir(example), "pi/fake/fake-model", env), example);
      }
    });

    const piCli = findPiCli();
    it("command (-m command/pi, the pi CLI from hankweave.commands.json)", {
      skip: piCli === undefined && "@mariozechner/pi-coding-agent is not installed",
    }, async () => {
      const agentDir = join(work, "pi-agent");
      writePiAgentDir(agentDir, `${fake.baseUrl}/v1`);
      for (const example of PROCESS_HARNESS_EXAMPLES) {
        const copy = join(work, example);
        cpSync(exampleDir(example), copy, { recursive: true });
        const command = piCommand(piCli ?? "pi", agentDir, join(work, `${example}-sessions`));
        const { name: _name, ...entry } = command;
        writeFileSync(join(copy, "hankweave.commands.json"), JSON.stringify({ commands: { pi: entry } }));
        assertRanThrough(await runExample(copy, "command/pi", {}), example);
      }
    });
  });
});
