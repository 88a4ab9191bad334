import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type FakeProviderServer,
  type FakeReply,
  type FakeRequestView,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../src/testing/fake-providers/index.ts";
import { type Agent, type Lifetime, loop } from "../../src/workflows/index.ts";
import { sandbox } from "./support.ts";

/**
 * The two lifetimes through the real Claude Code (Agent SDK) and pi SDK, against the fake provider
 * servers: with `workflow`, the second iteration's request of each agent carries its first iteration's
 * conversation; with `task`, it starts from its input alone.
 */

/** What the fake model saw of one agent request (side requests without tools are left out). */
interface Seen {
  readonly role: "coder" | "reviewer";
  /** Every user prompt of the conversation, the current one last. */
  readonly prompts: readonly string[];
  readonly messageCount: number;
}

/**
 * A fake model that answers each agent by its role (read from its system prompt) and numbers its
 * answers by the requests `seen` holds (the test empties it between two loops).
 */
function roleModel(seen: Seen[]): (request: FakeRequestView) => FakeReply {
  return (request) => {
    const role = request.system.includes(REVIEWER_ROLE) ? "reviewer" : "coder";
    if (request.tools.length === 0) return { type: "text", text: "Side answer." };
    seen.push({ role, prompts: request.prompts, messageCount: request.messageCount });
    const count = seen.filter((s) => s.role === role).length;
    return { type: "text", text: `${role} answer ${count}` };
  };
}

const CODER_ROLE = "You are the coder.";
const REVIEWER_ROLE = "You are the reviewer.";

function agents(model: string, roles: readonly string[]): Agent[] {
  return roles.map((role) => ({
    name: role === CODER_ROLE ? "coder" : "reviewer",
    model,
    instructions: role,
  }));
}

async function twoIterations(
  model: string,
  roles: readonly string[],
  lifetime: Lifetime,
  env: Record<string, string>,
  cwd: string,
) {
  return loop({
    steps: agents(model, roles),
    input: "Write add().",
    maxIterations: 2,
    lifetime,
    cwd,
    env: { ...process.env, ...env },
  });
}

/** The last user prompt of each agent request, in order, with what the conversation held before it. */
function turns(seen: readonly Seen[]): string[] {
  return seen.map(
    (s) =>
      `${s.role}: ${s.prompts.map((p) => (p.includes("Write add().") ? "Write add()." : lastLine(p))).join(" | ")}`,
  );
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}

/** The coder and the reviewer: each agent's second request carries its own first turn, or nothing. */
function checkTwoAgents(workflow: readonly Seen[], task: readonly Seen[]): void {
  assert.deepEqual(turns(workflow), [
    "coder: Write add().",
    "reviewer: coder answer 1",
    "coder: Write add(). | reviewer answer 1",
    "reviewer: coder answer 1 | coder answer 2",
  ]);
  assert.deepEqual(turns(task), [
    "coder: Write add().",
    "reviewer: coder answer 1",
    "coder: reviewer answer 1",
    "reviewer: coder answer 2",
  ]);
  checkMessageCounts(workflow, task, 2);
}

/** One agent fed its own answers: its second request carries its first turn, or nothing. */
function checkOneAgent(workflow: readonly Seen[], task: readonly Seen[]): void {
  assert.deepEqual(turns(workflow), ["coder: Write add().", "coder: Write add(). | coder answer 1"]);
  assert.deepEqual(turns(task), ["coder: Write add().", "coder: coder answer 1"]);
  checkMessageCounts(workflow, task, 1);
}

/** The coder's second request (at `index`) against its first: a replayed turn adds two messages. */
function checkMessageCounts(workflow: readonly Seen[], task: readonly Seen[], index: number): void {
  const first = (seen: readonly Seen[]) => seen[0]?.messageCount ?? 0;
  assert.equal(workflow[index]?.messageCount, first(workflow) + 2, "the first turn is replayed");
  assert.equal(task[index]?.messageCount, first(task), "a fresh session");
}

describe("loop() lifetimes through the real SDKs", { concurrency: false }, () => {
  const sb = sandbox("harnesses");
  after(() => sb.remove());

  describe("Claude (Agent SDK, fake Anthropic server)", () => {
    let fake: FakeProviderServer;
    const seen: Seen[] = [];
    before(async () => {
      fake = await startFakeAnthropic(roleModel(seen));
    });
    after(() => fake.close());

    // One agent (each Claude Code session is a process start): its own answers come back to it.
    it("workflow carries the first iteration's conversation; task does not", async () => {
      const env = { ANTHROPIC_BASE_URL: fake.baseUrl, ANTHROPIC_API_KEY: "workflows-test-key" };
      const workflow = await twoIterations("haiku", [CODER_ROLE], "workflow", env, sb.path());
      assert.deepEqual([workflow.ok, workflow.output, workflow.steps.length], [true, "coder answer 2", 2]);
      const workflowSeen = seen.splice(0);
      const task = await twoIterations("haiku", [CODER_ROLE], "task", env, sb.path());
      assert.deepEqual([task.ok, task.output], [true, "coder answer 2"]);
      checkOneAgent(workflowSeen, seen);
      assert.ok(
        workflow.usage.inputTokens > 0 && workflow.usage.costUsd > 0,
        "Claude reports usage and cost",
      );
    });
  });

  describe("pi (SDK, fake OpenAI server)", () => {
    let fake: FakeProviderServer;
    const seen: Seen[] = [];
    before(async () => {
      fake = await startFakeOpenAI(roleModel(seen));
    });
    after(() => fake.close());

    it("workflow carries the first iteration's conversation; task does not", async () => {
      const env = { HANKWEAVE_PI_FAKE_BASE_URL: `${fake.baseUrl}/v1` };
      const roles = [CODER_ROLE, REVIEWER_ROLE];
      const workflow = await twoIterations("pi/fake/fake-model", roles, "workflow", env, sb.path());
      assert.deepEqual([workflow.ok, workflow.output, workflow.steps.length], [true, "reviewer answer 2", 4]);
      const workflowSeen = seen.splice(0);
      const task = await twoIterations("pi/fake/fake-model", roles, "task", env, sb.path());
      assert.deepEqual([task.ok, task.output], [true, "reviewer answer 2"]);
      checkTwoAgents(workflowSeen, seen);
    });
  });
});
