import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type FakeProviderServer,
  type FakeRequestView,
  startFakeOpenAI,
} from "../../testing/fake-providers/index.ts";
import type { HarnessEvent, SessionOutcome } from "../harness.ts";
import { createPiHarness } from "./pi-harness.ts";
import {
  collect,
  eventSummary,
  FAKE_PRICING,
  fakeOptions,
  fakeRequest,
  type PiWorkspace,
  piWorkspace,
} from "./pi-test-support.ts";

// The real pi SDK against the fake OpenAI server. The SDK is imported once for this file (1.7 s).

const usage = { inputTokens: 1000, outputTokens: 100 };

function dollars(input: number, output: number, cacheRead = 0): number {
  return (
    (input * FAKE_PRICING.input + output * FAKE_PRICING.output + cacheRead * FAKE_PRICING.cacheRead) / 1e6
  );
}

function usageEvents(events: readonly HarnessEvent[]) {
  return events.flatMap((event) => (event.type === "usage" ? [event.usage] : []));
}

function assertClose(actual: number | null, expected: number): void {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);
}

describe("pi harness: a write, bash and text session", () => {
  let workspace: PiWorkspace;
  let server: FakeProviderServer;
  let result: { events: HarnessEvent[]; outcome: SessionOutcome };
  let ticks = 0;

  before(async () => {
    workspace = piWorkspace();
    server = await startFakeOpenAI([
      { type: "tool", calls: [{ tool: "write", input: { path: "notes/a.txt", content: "hello\n" } }], usage },
      { type: "tool", calls: [{ tool: "bash", input: { command: "cat notes/a.txt; echo $MARK" } }], usage },
      { type: "text", text: "All done.", usage: { ...usage, cacheReadTokens: 400 } },
    ]);
    const harness = createPiHarness(fakeOptions(workspace, server.baseUrl, () => (ticks += 5)));
    const env = { ...fakeRequest(workspace, "").env, MARK: "from-agent-env" };
    result = await collect(
      harness.start(fakeRequest(workspace, "Write the notes", { env, systemPrompt: "Be terse." })),
    );
  });
  after(async () => {
    await server.close();
    workspace.remove();
  });

  it("declares its name and capabilities", () => {
    const harness = createPiHarness(fakeOptions(workspace, server.baseUrl));
    assert.equal(harness.name, "pi");
    assert.deepEqual(harness.capabilities, { resume: true, reportsCost: true, compaction: true });
  });

  it("reports the session in order: tool use, results, file change, usage, turns, text", () => {
    assert.deepEqual(eventSummary(result.events), [
      "session.started",
      "usage",
      "tool.use:write:reported-files",
      "tool.result:write:ok",
      "file.changed:created:notes/a.txt",
      "turn.ended:completed",
      "usage",
      "tool.use:bash:unknown",
      "tool.result:bash:ok",
      "turn.ended:completed",
      "assistant.text:All done.",
      "usage",
      "turn.ended:completed",
    ]);
  });

  it("really writes the file and runs bash in the agent environment", () => {
    assert.equal(readFileSync(join(workspace.cwd, "notes/a.txt"), "utf8"), "hello\n");
    const bash = result.events.find((e) => e.type === "tool.result" && e.toolName === "bash");
    assert.ok(bash?.type === "tool.result");
    assert.equal(bash.result, "hello\nfrom-agent-env\n");
    assert.equal(bash.executionTimeMs, 5);
  });

  it("reports each tool call with pi's arguments and the file change with its tool use id", () => {
    const use = result.events.find((e) => e.type === "tool.use" && e.toolName === "write");
    const change = result.events.find((e) => e.type === "file.changed");
    assert.ok(use?.type === "tool.use" && change?.type === "file.changed");
    assert.deepEqual(use.input, { path: "notes/a.txt", content: "hello\n" });
    assert.equal(change.toolUseId, use.toolUseId);
  });

  it("prices usage from the model's prices and sums it in the outcome", () => {
    const increments = usageEvents(result.events);
    assert.deepEqual(
      increments.map((u) => [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheCreationTokens]),
      [
        [1000, 100, 0, 0],
        [1000, 100, 0, 0],
        [1000, 100, 400, 0],
      ],
    );
    assertClose(increments[2]?.costUsd ?? null, dollars(1000, 100, 400));
    const { totals } = result.outcome;
    assert.equal(totals.inputTokens, 3000);
    assert.equal(totals.outputTokens, 300);
    assert.equal(totals.cacheReadTokens, 400);
    assertClose(totals.costUsd, dollars(3000, 300, 400));
  });

  it("completes with the final text and every layer completed", () => {
    const { outcome } = result;
    assert.equal(outcome.kind, "completed");
    assert.ok(outcome.kind === "completed");
    assert.equal(outcome.resultText, "All done.");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "completed" });
    assert.equal(
      outcome.sessionId,
      result.events[0]?.type === "session.started" ? result.events[0].sessionId : "",
    );
  });

  it("sends pi's system prompt with ours appended, and only the four offline tools", () => {
    const body = server.requests[0]?.body as {
      messages: { role: string; content: string }[];
      tools: { function: { name: string } }[];
    };
    const system = body.messages[0];
    assert.equal(system?.role, "system");
    assert.match(system?.content ?? "", /^You are an expert coding assistant operating inside pi/);
    assert.match(system?.content ?? "", /\n\nBe terse\.\n/);
    assert.deepEqual(
      body.tools.map((t) => t.function.name),
      ["read", "bash", "edit", "write"],
    );
  });
});

describe("pi harness: resume", () => {
  let workspace: PiWorkspace;
  let server: FakeProviderServer;
  const seen: FakeRequestView[] = [];

  before(async () => {
    workspace = piWorkspace();
    server = await startFakeOpenAI((request) => {
      seen.push(request);
      return { type: "text", text: `answer ${request.requestIndex}`, usage };
    });
  });
  after(async () => {
    await server.close();
    workspace.remove();
  });

  it("continues the same session id with the history replayed, also from a new harness instance", async () => {
    const first = await collect(
      createPiHarness(fakeOptions(workspace, server.baseUrl)).start(fakeRequest(workspace, "first")),
    );
    const id = first.outcome.sessionId;
    assert.ok(id !== undefined);
    assert.deepEqual(readdirSync(workspace.sessionDir).filter((n) => n.endsWith(`_${id}.jsonl`)).length, 1);
    const harness = createPiHarness(fakeOptions(workspace, server.baseUrl));
    const second = await collect(harness.start(fakeRequest(workspace, "second", { resumeSessionId: id })));
    assert.deepEqual(second.events[0], { type: "session.started", sessionId: id });
    assert.equal(second.outcome.sessionId, id);
    assert.deepEqual(seen[1]?.prompts, ["first", "second"]);
    assert.equal(seen[1]?.messageCount, 4);
  });

  it("fails permanently, before any event, when the session to resume does not exist", async () => {
    const harness = createPiHarness(fakeOptions(workspace, server.baseUrl));
    const { events, outcome } = await collect(
      harness.start(fakeRequest(workspace, "x", { resumeSessionId: "nope" })),
    );
    assert.deepEqual(events, []);
    assert.equal(outcome.kind, "failed");
    assert.ok(outcome.kind === "failed");
    assert.equal(outcome.sessionEstablished, false);
    assert.equal(outcome.reason.retriable, false);
    assert.equal(outcome.reason.message, `pi session nope not found in ${workspace.sessionDir}`);
  });
});
