import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HarnessEvent } from "../harness.ts";
import { EventMapper } from "./event-mapper.ts";

function mapper(times: number[]) {
  const events: HarnessEvent[] = [];
  const clock = [...times];
  const map = new EventMapper(
    "/exec/agentRoot",
    () => clock.shift() ?? 0,
    (event) => events.push(event),
  );
  return { map, events };
}

const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  message: { id: "m1", model: "claude-sonnet-4-5", content },
  ...extra,
});

describe("EventMapper", () => {
  it("maps text, thinking and tool calls; results are timed and file tools report the change", () => {
    const { map, events } = mapper([100, 350]);
    map.onAssistant(
      assistant([
        { type: "thinking", thinking: "plan" },
        { type: "text", text: "Writing." },
        { type: "tool_use", id: "t1", name: "Write", input: { file_path: "a.txt", content: "x" } },
      ]),
    );
    assert.equal(map.toolsPending, true);
    map.onUser({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "File created" }],
      },
      tool_use_result: { type: "create", filePath: "a.txt" },
    });
    assert.equal(map.toolsPending, false);
    assert.deepEqual(events, [
      { type: "assistant.thinking", text: "plan" },
      { type: "assistant.text", text: "Writing." },
      {
        type: "tool.use",
        toolUseId: "t1",
        toolName: "Write",
        input: { file_path: "a.txt", content: "x" },
        effects: "reported-files",
      },
      {
        type: "tool.result",
        toolUseId: "t1",
        toolName: "Write",
        result: "File created",
        isError: false,
        executionTimeMs: 250,
      },
      { type: "file.changed", path: "a.txt", action: "created", toolUseId: "t1" },
    ]);
  });

  it("a failed file tool changes nothing; result blocks are joined; synthetic API errors are not text", () => {
    const { map, events } = mapper([0, 5]);
    map.onAssistant(assistant([{ type: "tool_use", id: "t2", name: "Edit", input: { file_path: "b.txt" } }]));
    map.onUser({
      type: "user",
      message: {
        content: [
          {
            type: "tool_result",
            tool_use_id: "t2",
            is_error: true,
            content: [
              { type: "text", text: "old_string" },
              { type: "text", text: "not found" },
            ],
          },
        ],
      },
    });
    map.onAssistant({
      type: "assistant",
      error: "rate_limit",
      message: { model: "<synthetic>", content: [{ type: "text", text: "API Error" }] },
    });
    map.onUser({
      type: "user",
      isSynthetic: true,
      message: { content: [{ type: "text", text: "Output token limit hit." }] },
    });
    assert.deepEqual(events.slice(1), [
      {
        type: "tool.result",
        toolUseId: "t2",
        toolName: "Edit",
        result: "old_string\nnot found",
        isError: true,
        executionTimeMs: 5,
      },
    ]);
  });

  it("reports arguments Claude Code could not parse as truncated", () => {
    const { map, events } = mapper([0]);
    const input = { __unparsedToolInput: { raw: '{"file_path": "a', len: 16 } };
    map.onAssistant(assistant([{ type: "tool_use", id: "t3", name: "Write", input }]));
    assert.deepEqual(events, [
      {
        type: "tool.use",
        toolUseId: "t3",
        toolName: "Write",
        input: { truncated: true, partialInput: '{"file_path": "a' },
        effects: "none",
      },
    ]);
  });
});
