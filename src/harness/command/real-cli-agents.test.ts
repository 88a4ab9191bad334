import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type FakeProviderServer,
  markerScript,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../testing/fake-providers/index.ts";
import type { HarnessEvent } from "../harness.ts";
import { DEFAULT_KILL_GRACE_MS, type NamedCommand } from "./command-config.ts";
import { createCommandHarness } from "./command-harness.ts";
import { createFakeClock, makeRequest, runToEnd, tempDir, testDeps } from "./test-support.ts";

/**
 * The command harness driving the real Claude Code and pi CLIs (dev dependencies) against the fake
 * providers, offline. Skipped when a CLI is not installed.
 */

const require = createRequire(import.meta.url);

function installed(resolve: () => string): string | undefined {
  try {
    const path = resolve();
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const CLAUDE = installed(() =>
  join(dirname(require.resolve("@anthropic-ai/claude-agent-sdk-linux-x64/package.json")), "claude"),
);
// pi exports only an ESM entry (dist/index.js); its CLI sits beside it.
const PI = installed(() =>
  join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js"),
);
const PROMPT = "WRITE_FILE=hello.txt\nRUN=cat hello.txt";

const kinds = (events: HarnessEvent[]): string[] =>
  events.map((e) => (e.type === "tool.use" ? `tool.use:${e.toolName}` : e.type));

describe("command harness with real CLI agents", () => {
  let ws: ReturnType<typeof tempDir>;
  let fake: FakeProviderServer | undefined;
  beforeEach(() => {
    ws = tempDir();
  });
  afterEach(async () => {
    await fake?.close();
    ws.remove();
  });

  it("claude -p --output-format stream-json: write, bash, text; then resume the same session", {
    skip: CLAUDE === undefined,
  }, async () => {
    fake = await startFakeAnthropic(markerScript({ usage: { inputTokens: 1000, outputTokens: 20 } }));
    const cwd = join(ws.dir, "work");
    mkdirSync(cwd);
    const common = [
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--model",
      "{model}",
    ];
    const command: NamedCommand = {
      name: "claude",
      command: CLAUDE ?? "claude",
      args: ["-p", "{prompt}", ...common],
      resumeArgs: ["-p", "{prompt}", "--resume", "{sessionId}", ...common],
      stdin: false,
      output: "claude-stream-json",
      model: "claude-sonnet-4-5",
      env: {
        ANTHROPIC_BASE_URL: fake.baseUrl,
        ANTHROPIC_API_KEY: "test",
        CLAUDE_CONFIG_DIR: join(ws.dir, "claude"),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
        IS_SANDBOX: "1",
      },
      killGraceMs: DEFAULT_KILL_GRACE_MS,
    };
    const harness = createCommandHarness(command, testDeps(createFakeClock(), ws.dir));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: ws.dir };
    const first = await runToEnd(harness, makeRequest(cwd, { prompt: PROMPT, env }));
    assert.equal(readFileSync(join(cwd, "hello.txt"), "utf8"), "written by the fake provider\n");
    assert.deepEqual(kinds(first.events), [
      "session.started",
      "tool.use:Write",
      "tool.result",
      "tool.use:Bash",
      "tool.result",
      "assistant.text",
      "usage",
      "turn.ended",
    ]);
    assert.equal(first.outcome.kind, "completed");
    assert.equal(first.outcome.totals.inputTokens, 3000);
    assert.equal(typeof first.outcome.totals.costUsd, "number");
    const sessionId = first.outcome.sessionId ?? "";
    const second = await runToEnd(
      harness,
      makeRequest(cwd, { prompt: "thanks", env, resumeSessionId: sessionId }),
    );
    assert.equal(second.outcome.kind, "completed");
    assert.equal(second.outcome.sessionId, sessionId);
    const lastBody = fake.requests.at(-1)?.body as { messages: unknown[] };
    assert.equal(lastBody.messages.length > 2, true);
  });

  it("pi --mode json: write, bash, text with pi's cost from its models.json", {
    skip: PI === undefined,
  }, async () => {
    fake = await startFakeOpenAI(markerScript({ usage: { inputTokens: 1000, outputTokens: 100 } }));
    const cwd = join(ws.dir, "work");
    const agentDir = join(ws.dir, "pi");
    mkdirSync(cwd);
    mkdirSync(agentDir);
    const models = {
      providers: {
        fake: {
          baseUrl: `${fake.baseUrl}/v1`,
          api: "openai-completions",
          apiKey: "dummy",
          models: [{ id: "fake-model", cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }],
        },
      },
    };
    writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
    const command: NamedCommand = {
      name: "pi",
      command: process.execPath,
      args: [
        PI ?? "pi",
        "--mode",
        "json",
        "-p",
        "--provider",
        "fake",
        "--model",
        "{model}",
        "--no-session",
        "{prompt}",
      ],
      stdin: false,
      output: "pi-json",
      model: "fake-model",
      env: { PI_CODING_AGENT_DIR: agentDir },
      killGraceMs: DEFAULT_KILL_GRACE_MS,
    };
    const harness = createCommandHarness(command, testDeps(createFakeClock(), ws.dir));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: ws.dir };
    const { events, outcome } = await runToEnd(harness, makeRequest(cwd, { prompt: PROMPT, env }));
    assert.equal(readFileSync(join(cwd, "hello.txt"), "utf8"), "written by the fake provider\n");
    assert.deepEqual(kinds(events), [
      "session.started",
      "tool.use:write",
      "usage",
      "tool.result",
      "tool.use:bash",
      "usage",
      "tool.result",
      "assistant.text",
      "usage",
      "turn.ended",
    ]);
    assert.equal(outcome.kind, "completed");
    const { costUsd, ...tokens } = outcome.totals;
    assert.deepEqual(tokens, {
      inputTokens: 3000,
      outputTokens: 300,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
    });
    // Three responses of 1000 input ($3/Mtok) and 100 output ($15/Mtok) tokens, as pi prices them.
    assert.equal(Math.round((costUsd ?? 0) * 1e6), 13_500);
  });
});
