import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FakeRequestView } from "../fake-providers/index.ts";
import { createSessionDirector } from "./session-director.ts";

/** A request view as a fake provider builds it; only the fields the plans read matter. */
function view(step: number, tools: FakeRequestView["tools"]): FakeRequestView {
  return {
    provider: "openai",
    requestIndex: 0,
    model: "fake-model",
    stream: true,
    system: "",
    tools,
    prompt: "Work.",
    prompts: ["Work."],
    toolResults: [],
    step,
    totalToolResults: step,
    messageCount: 1,
    body: {},
  };
}

const PI_TOOLS = [
  { name: "bash", properties: ["command", "timeout"] },
  { name: "write", properties: ["path", "content"] },
];
const CLAUDE_TOOLS = [
  { name: "Bash", properties: ["command"] },
  { name: "Write", properties: ["file_path", "content"] },
];

describe("session director", () => {
  it("hands out the plans in start order and refuses an unplanned session", () => {
    const director = createSessionDirector();
    director.plan([{ kind: "overflow" }, { kind: "stall" }]);
    assert.equal(director.started(), 0);
    assert.throws(() => director.current(), /No conformance session has started/);
    assert.deepEqual(director.nextSession(), { kind: "overflow" });
    assert.deepEqual(director.nextSession(), { kind: "stall" });
    assert.equal(director.started(), 2);
    assert.throws(() => director.nextSession(), /started session 3, but the scenario plans 2/);
    director.plan([{ kind: "stall" }]);
    assert.equal(director.started(), 0);
  });

  it("answers each request of a work session by its step, in the agent's own tool names", () => {
    const director = createSessionDirector();
    const steps = [
      { kind: "write", path: "a.txt", content: "hi\n" },
      { kind: "run", command: "cat a.txt" },
    ] as const;
    director.plan([
      { kind: "work", steps, text: "Done." },
      { kind: "work", steps, text: "Done." },
    ]);
    director.nextSession();
    assert.deepEqual(director.fakeScript(view(0, PI_TOOLS)), {
      type: "tool",
      calls: [{ tool: "write", input: { path: "a.txt", content: "hi\n" } }],
    });
    assert.deepEqual(director.fakeScript(view(1, PI_TOOLS)), {
      type: "tool",
      calls: [{ tool: "bash", input: { command: "cat a.txt" } }],
    });
    assert.deepEqual(director.fakeScript(view(2, PI_TOOLS)), { type: "text", text: "Done." });
    director.nextSession();
    assert.deepEqual(director.fakeScript(view(0, CLAUDE_TOOLS)), {
      type: "tool",
      calls: [{ tool: "Write", input: { file_path: "a.txt", content: "hi\n" } }],
    });
    assert.deepEqual(director.fakeScript(view(0, [])), { type: "text", text: "Done." });
    assert.deepEqual(
      [0, 1].map((i) => director.requestsOf(i).map((r) => r.step)),
      [
        [0, 1, 2],
        [0, 0],
      ],
    );
  });

  it("acts out faults, overflow, a cut write, a stall and an over-budget response", () => {
    const director = createSessionDirector();
    director.plan([
      { kind: "fault", fault: "auth" },
      { kind: "overflow" },
      { kind: "max-tokens", path: "cut.txt", content: "never written" },
      { kind: "stall" },
      { kind: "over-budget", step: { kind: "run", command: "true" }, outputTokens: 600 },
    ]);
    const answers = [0, 1, 2, 3, 4].map(() => {
      director.nextSession();
      return [director.fakeScript(view(0, PI_TOOLS)), director.fakeScript(view(1, PI_TOOLS))];
    });
    assert.deepEqual(answers, [
      [
        { type: "http-error", status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
        { type: "http-error", status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
      ],
      [{ type: "prompt-too-long" }, { type: "prompt-too-long" }],
      [
        {
          type: "max-tokens",
          call: { tool: "write", input: { path: "cut.txt", content: "never written" } },
          keepChars: '{"path":"cut.txt","content":"never written"}'.length - 6,
        },
        { type: "text", text: "Done." },
      ],
      [{ type: "stall" }, { type: "stall" }],
      [
        { type: "tool", calls: [{ tool: "bash", input: { command: "true" } }], usage: { outputTokens: 600 } },
        { type: "stall" },
      ],
    ]);
  });
});
