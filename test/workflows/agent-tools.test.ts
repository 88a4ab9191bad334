import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type FakeProviderServer,
  type FakeRequestView,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../src/testing/fake-providers/index.ts";
import { type Agent, loop, run, WorkflowArgumentError } from "../../src/workflows/index.ts";
import { recorder, sandbox, scripted } from "./support.ts";

/**
 * An agent's `tools` end to end: the scripted agent refuses a call the settings leave out; the real
 * Claude Agent SDK and pi SDK offer the model only the permitted tools (seen in the requests the fake
 * provider servers receive); an agent whose harness cannot restrict tools is refused before anything
 * runs.
 */

function thrownIssues(error: unknown): string[] {
  assert.ok(error instanceof WorkflowArgumentError, String(error));
  return error.issues.map((issue) => `${issue.argument}: ${issue.message}`);
}

/** The tool names each agent's model requests offered, by the agent's role in its system prompt. */
function toolsModel(seen: Map<string, readonly string[]>): (request: FakeRequestView) => {
  type: "text";
  text: string;
} {
  return (request) => {
    const role = /You are agent (\w+)\./.exec(request.system)?.[1];
    if (role !== undefined && request.tools.length > 0)
      seen.set(role, request.tools.map((t) => t.name).sort());
    return { type: "text", text: `answer of ${role ?? "nobody"}` };
  };
}

function roleAgent(name: string, model: string, tools: Agent["tools"]): Agent {
  return { name, model, instructions: `You are agent ${name}.`, tools };
}

describe("agents' tool settings", { concurrency: false }, () => {
  const sb = sandbox("tools");
  after(() => sb.remove());

  it("the scripted agent refuses a denied tool as a permission refusal; the turn ends blocked", async () => {
    const { events, onEvent } = recorder();
    const result = await loop({
      steps: [
        scripted("coder", { tools: { deny: ["Bash"] } }),
        scripted("writer", { tools: { allow: ["Write"] } }),
      ],
      input:
        "@run touch ran.txt\n@write coder.txt yes\n@say @append appended.txt no\\n@write writer.txt yes\\n@say done",
      maxIterations: 1,
      cwd: sb.path(),
      onEvent,
    });
    assert.deepEqual([result.ok, result.output, result.endCause], [true, "done", "max-iterations"]);
    assert.deepEqual(
      ["ran.txt", "coder.txt", "appended.txt", "writer.txt"].map((file) => existsSync(sb.path(file))),
      [false, true, false, true],
    );
    const refusals = events.flatMap((event) =>
      event.type === "tool.result" && event.data.isError
        ? [`${event.data.codonId} ${event.data.result}`]
        : [],
    );
    assert.deepEqual(refusals, [
      "coder#0 Permission to use Bash (touch ran.txt) was denied (the agent's tool settings leave it out); the call was not executed.",
      "writer#0 Permission to use Edit on appended.txt was denied (the agent's tool settings leave it out); the call was not executed.",
    ]);
    const turns = events.flatMap((event) =>
      event.type === "codon.completed" ? [`${event.data.codonId} ${event.data.endReasons?.turn}`] : [],
    );
    assert.deepEqual(turns, ["coder#0 blocked", "writer#0 blocked"]);
  });

  it("applies them in a durable loop too, and refuses to continue it with other tools", async () => {
    const dir = sb.path("durable");
    const run = (deny: string[]) =>
      loop({
        steps: [scripted("coder", { tools: { deny } })],
        input: "@run touch ran.txt\n@say done",
        maxIterations: 1,
        durable: { dir },
      });
    const result = await run(["Bash"]);
    assert.deepEqual([result.ok, result.output], [true, "done"]);
    assert.equal(existsSync(join(result.workspace, "ran.txt")), false);
    await assert.rejects(
      run([]),
      /holds a loop started with other arguments \(input, lifetime, the token budget or tools differ\)/,
    );
  });

  it("refuses, before anything runs, tools a harness cannot apply", async () => {
    const input = "@write never.txt x";
    await assert.rejects(
      loop({
        steps: [
          { name: "cli", model: "command/my-agent", tools: { deny: ["Bash"] } },
          { name: "pi", model: "pi/fake/fake-model", tools: { allow: ["read", "Read"] } },
        ],
        input,
        cwd: sb.path(),
      }),
      (error: unknown) => {
        assert.deepEqual(thrownIssues(error), [
          'options.steps[0].tools: agent "cli" runs on command/my-agent (command harness), which cannot restrict an agent\'s tools.',
          'options.steps[1].tools.allow: agent "pi" runs on pi/fake/fake-model, whose harness (pi) has no tool "Read".',
        ]);
        return true;
      },
    );
    // Invalid settings reject the promise as the harness check does: one async contract.
    await assert.rejects(
      () => loop({ steps: [scripted("a", { tools: { allow: ["Write"], deny: ["Write", ""] } })], input }),
      (error: unknown) => {
        assert.deepEqual(thrownIssues(error), [
          "options.steps[0].tools.deny[1]: a tool name cannot be empty.",
          "options.steps[0].tools: allows and denies the same tool.",
        ]);
        return true;
      },
    );
    await assert.rejects(
      run({ name: "cli", model: "command/my-agent", tools: { allow: [] } }, input, { cwd: sb.path() }),
      (error: unknown) => {
        assert.match(thrownIssues(error)[0] ?? "", /^agent\.tools: agent "cli" runs on command\/my-agent/);
        return true;
      },
    );
    assert.equal(existsSync(sb.path("never.txt")), false);
  });

  describe("Claude (Agent SDK, fake Anthropic server)", () => {
    let fake: FakeProviderServer;
    const seen = new Map<string, readonly string[]>();
    before(async () => {
      fake = await startFakeAnthropic(toolsModel(seen));
    });
    after(() => fake.close());

    it("offers the model only the allowed tools, and none of the denied ones", async () => {
      const result = await loop({
        steps: [
          roleAgent("reader", "haiku", { allow: ["Read", "Grep"] }),
          roleAgent("nobash", "haiku", { deny: ["Bash", "Write"] }),
        ],
        input: "Look around.",
        maxIterations: 1,
        cwd: sb.path(),
        env: { ...process.env, ANTHROPIC_BASE_URL: fake.baseUrl, ANTHROPIC_API_KEY: "tools-test-key" },
      });
      assert.deepEqual([result.ok, result.output], [true, "answer of nobash"]);
      assert.deepEqual(seen.get("reader"), ["Grep", "Read"]);
      const nobash = seen.get("nobash") ?? [];
      assert.ok(nobash.includes("Read") && nobash.includes("Edit"), nobash.join(", "));
      assert.ok(!nobash.includes("Bash") && !nobash.includes("Write"), nobash.join(", "));
    });
  });

  describe("pi (SDK, fake OpenAI server)", () => {
    let fake: FakeProviderServer;
    const seen = new Map<string, readonly string[]>();
    before(async () => {
      fake = await startFakeOpenAI(toolsModel(seen));
    });
    after(() => fake.close());

    it("offers the model only the allowed tools, and none of the denied ones", async () => {
      const result = await loop({
        steps: [
          roleAgent("reader", "pi/fake/fake-model", { allow: ["read"] }),
          roleAgent("nobash", "pi/fake/fake-model", { deny: ["bash"] }),
        ],
        input: "Look around.",
        maxIterations: 1,
        cwd: sb.path(),
        env: { ...process.env, HANKWEAVE_PI_FAKE_BASE_URL: `${fake.baseUrl}/v1` },
      });
      assert.deepEqual([result.ok, result.output], [true, "answer of nobash"]);
      assert.deepEqual(seen.get("reader"), ["read"]);
      assert.deepEqual(seen.get("nobash"), ["edit", "read", "write"]);
    });
  });
});
