import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import type { AgentSessionEvent } from "@mariozechner/pi-coding-agent";
import type { HarnessEvent } from "../harness.ts";
import { PiEventMapper, streamEndReason } from "./pi-event-mapper.ts";
import { assistantMessage, eventSummary, piWorkspace } from "./pi-test-support.ts";

const workspace = piWorkspace();
after(() => workspace.remove());

function mapper(options: { priced?: boolean; signal?: AbortSignal } = {}) {
  const events: HarnessEvent[] = [];
  let now = 100;
  const instance = new PiEventMapper({
    emit: (event) => events.push(event),
    clock: { now: () => (now += 10) },
    cwd: workspace.cwd,
    priced: options.priced ?? true,
    signal: options.signal ?? new AbortController().signal,
  });
  return { instance, events };
}

const usage = (input: number, output: number, total: number): AssistantMessage["usage"] => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
});

const end = (message: AssistantMessage): AgentSessionEvent => ({ type: "message_end", message });
const turnEnd = (message: AssistantMessage): AgentSessionEvent => ({
  type: "turn_end",
  message,
  toolResults: [],
});

function toolCall(
  id: string,
  toolName: string,
  args: Record<string, unknown>,
  isError = false,
): AgentSessionEvent[] {
  const result = { content: [{ type: "text", text: `${toolName} done` }], details: undefined };
  return [
    { type: "tool_execution_start", toolCallId: id, toolName, args },
    { type: "tool_execution_end", toolCallId: id, toolName, result, isError },
  ];
}

describe("streamEndReason", () => {
  it("maps pi's stop reasons to layer end reasons", () => {
    assert.deepEqual((["stop", "toolUse", "length", "error", "aborted"] as const).map(streamEndReason), [
      "completed",
      "completed",
      "max-tokens",
      "error",
      "aborted",
    ]);
  });
});

describe("PiEventMapper", () => {
  it("reports thinking before text, once per message, and the last text as the result", () => {
    const { instance, events } = mapper();
    const message = assistantMessage("stop", {
      content: [
        { type: "thinking", thinking: "Let me see." },
        { type: "text", text: "Part one, " },
        { type: "text", text: "part two." },
      ],
      usage: usage(10, 5, 0.25),
    });
    instance.handle(end(message));
    instance.handle(turnEnd(message));
    assert.deepEqual(eventSummary(events), [
      "assistant.thinking:Let me see.",
      "assistant.text:Part one, part two.",
      "usage",
      "turn.ended:completed",
    ]);
    assert.equal(instance.result().resultText, "Part one, part two.");
    assert.equal(instance.result().totals.costUsd, 0.25);
  });

  it("skips empty usage and reports a null cost for an unpriced model", () => {
    const { instance, events } = mapper({ priced: false });
    instance.handle(end(assistantMessage("error", { errorMessage: "boom" })));
    instance.handle(end(assistantMessage("stop", { usage: usage(3, 1, 0) })));
    assert.deepEqual(events, [
      {
        type: "usage",
        usage: { inputTokens: 3, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: null },
      },
    ]);
    assert.equal(instance.result().totals.costUsd, null);
  });

  it("reports created and modified files inside the workspace, nothing for other paths", () => {
    writeFileSync(join(workspace.cwd, "existing.txt"), "old");
    const { instance, events } = mapper();
    const message = assistantMessage("toolUse");
    instance.handle(end(message));
    instance.beforeRun("w1", { path: "new.txt" });
    instance.beforeRun("w2", { path: "existing.txt" });
    instance.beforeRun("w3", { path: "/elsewhere/x.txt" });
    for (const event of [
      ...toolCall("w1", "write", { path: "new.txt", content: "n" }),
      ...toolCall("w2", "write", { path: "existing.txt", content: "m" }),
      ...toolCall("w3", "write", { path: "/elsewhere/x.txt", content: "x" }),
      ...toolCall("e1", "edit", { path: "existing.txt", edits: [] }),
      ...toolCall("e2", "edit", { path: "broken.txt", edits: [] }, true),
    ]) {
      instance.handle(event);
    }
    const changes = events.flatMap((e) =>
      e.type === "file.changed" ? [[e.action, e.path, e.toolUseId]] : [],
    );
    assert.deepEqual(changes, [
      ["created", "new.txt", "w1"],
      ["modified", "existing.txt", "w2"],
      ["modified", "existing.txt", "e1"],
    ]);
    const times = events.flatMap((e) => (e.type === "tool.result" ? [e.executionTimeMs] : []));
    assert.deepEqual(times, [10, 10, 10, 10, 10]);
  });

  it("ends a tool batch that finished after the cancel as aborted, for the turn too", () => {
    const controller = new AbortController();
    const { instance, events } = mapper({ signal: controller.signal });
    const message = assistantMessage("toolUse");
    instance.handle(end(message));
    const [start, finish] = toolCall("b1", "bash", { command: "sleep 9" }, true);
    if (start === undefined || finish === undefined) throw new Error("tool call events");
    instance.handle(start);
    controller.abort();
    instance.handle(finish);
    instance.handle(turnEnd(message));
    assert.deepEqual(events.at(-1), { type: "turn.ended", reason: "aborted" });
    assert.deepEqual(instance.result().layers, {
      stream: "completed",
      toolBatch: "aborted",
      turn: "aborted",
    });
  });

  it("settles agentEnded on agent_end", async () => {
    const { instance } = mapper();
    instance.handle({ type: "agent_end", messages: [] });
    await instance.agentEnded;
    assert.equal(instance.result().lastAssistant, undefined);
  });
});
