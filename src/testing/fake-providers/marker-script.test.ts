import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FakeRequestView } from "./fake-types.ts";
import { findMarkers, markerScript } from "./marker-script.ts";
import { resolveToolName, splitPieces } from "./plan-answer.ts";
import { anthropicView, openaiView } from "./request-view.ts";
import { startFakeOpenAI } from "./start-fake-openai.ts";
import { CLAUDE_TOOLS, PI_TOOLS, post } from "./test-support.ts";

const PROMPT = "Please do this.\nWRITE_FILE=out/a.txt and then\nRUN=cat out/a.txt | wc -c\n";

describe("findMarkers", () => {
  it("finds WRITE_FILE paths and RUN commands in order", () => {
    assert.deepEqual(findMarkers(PROMPT), [
      { kind: "write", path: "out/a.txt" },
      { kind: "run", command: "cat out/a.txt | wc -c" },
    ]);
    assert.deepEqual(findMarkers("RUN=   \nnothing else"), []);
  });
});

describe("request views", () => {
  it("counts the tool results of the current turn (Anthropic)", () => {
    const view = anthropicView(
      {
        model: "m",
        stream: true,
        system: [{ type: "text", text: "sys" }],
        tools: CLAUDE_TOOLS,
        messages: [
          { role: "user", content: "first prompt" },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "one" }] },
          { role: "assistant", content: [{ type: "text", text: "done" }] },
          { role: "user", content: [{ type: "text", text: "second prompt" }] },
          { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Bash", input: {} }] },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "t2",
                content: [{ type: "text", text: "two" }],
                is_error: true,
              },
            ],
          },
        ],
      },
      4,
    );
    assert.deepEqual(
      { ...view, body: null },
      {
        provider: "anthropic",
        requestIndex: 4,
        model: "m",
        stream: true,
        system: "sys",
        tools: [
          { name: "Write", properties: ["file_path", "content"] },
          { name: "Bash", properties: ["command"] },
        ],
        prompt: "second prompt",
        prompts: ["first prompt", "second prompt"],
        toolResults: [{ toolUseId: "t2", text: "two", isError: true }],
        step: 1,
        totalToolResults: 2,
        messageCount: 7,
        body: null,
      },
    );
  });

  it("reads system, tools and tool messages (OpenAI)", () => {
    const view = openaiView(
      {
        model: "m",
        tools: PI_TOOLS,
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: [{ type: "text", text: "go" }] },
          { role: "assistant", content: null, tool_calls: [{ id: "c1" }] },
          { role: "tool", tool_call_id: "c1", content: "result" },
        ],
      },
      0,
    );
    assert.equal(view.system, "sys");
    assert.equal(view.stream, false);
    assert.equal(view.prompt, "go");
    assert.deepEqual(view.toolResults, [{ toolUseId: "c1", text: "result", isError: false }]);
    assert.deepEqual(view.tools, [
      { name: "write", properties: ["path", "content"] },
      { name: "bash", properties: ["command"] },
    ]);
  });
});

describe("markerScript", () => {
  const script = markerScript();
  const claude = (results: string[]): FakeRequestView =>
    anthropicView(
      {
        model: "m",
        tools: CLAUDE_TOOLS,
        messages: [
          { role: "user", content: PROMPT },
          ...results.map((text, i) => ({
            role: "user",
            content: [{ type: "tool_result", tool_use_id: `t${i}`, content: text }],
          })),
        ],
      },
      results.length,
    );

  it("calls Claude Code's Write, then Bash, then answers with the last tool result", () => {
    assert.deepEqual(script(claude([])), {
      type: "tool",
      calls: [
        { tool: "Write", input: { file_path: "out/a.txt", content: "written by the fake provider\n" } },
      ],
    });
    assert.deepEqual(script(claude(["wrote"])), {
      type: "tool",
      calls: [{ tool: "bash", input: { command: "cat out/a.txt | wc -c" } }],
    });
    assert.deepEqual(script(claude(["wrote", "29"])), { type: "text", text: "Done. Last tool result: 29" });
  });

  it("uses pi's write tool and its path argument", () => {
    const view = openaiView(
      { model: "m", tools: PI_TOOLS, messages: [{ role: "user", content: PROMPT }] },
      0,
    );
    assert.deepEqual(markerScript({ content: "x", usage: { inputTokens: 1 } })(view), {
      type: "tool",
      calls: [{ tool: "write", input: { path: "out/a.txt", content: "x" } }],
      usage: { inputTokens: 1 },
    });
  });

  it("answers a request without tools (a side request) with text", () => {
    const view = anthropicView({ model: "m", messages: [{ role: "user", content: PROMPT }] }, 0);
    assert.deepEqual(markerScript({ finalText: () => "Title" })(view), { type: "text", text: "Title" });
    assert.deepEqual(script(view), { type: "text", text: "Done." });
  });
});

describe("helpers", () => {
  it("splits text into nearly equal pieces", () => {
    assert.deepEqual(splitPieces("abcdefg", 3), ["abc", "def", "g"]);
    assert.deepEqual(splitPieces("ab", 5), ["a", "b"]);
    assert.deepEqual(splitPieces("", 2), []);
  });

  it("resolves tool names exactly, then case-insensitively, else as given", () => {
    const view = anthropicView({ tools: [{ name: "Write" }, { name: "write" }, { name: "Bash" }] }, 0);
    assert.equal(resolveToolName(view, "write"), "write");
    assert.equal(resolveToolName(view, "BASH"), "Bash");
    assert.equal(resolveToolName(view, "Edit"), "Edit");
  });
});

describe("a script that throws", () => {
  it("gets a 500 naming the error, recorded as script-error", async () => {
    const server = await startFakeOpenAI(() => {
      throw new Error("boom");
    });
    try {
      const response = await post(`${server.baseUrl}/v1/chat/completions`, { model: "m", messages: [] });
      assert.equal(response.status, 500);
      assert.equal(await response.text(), "fake provider script threw: boom");
      assert.deepEqual(
        server.requests.map((r) => [r.route, r.reply]),
        [["chat_completions", "script-error"]],
      );
    } finally {
      await server.close();
    }
  });
});
