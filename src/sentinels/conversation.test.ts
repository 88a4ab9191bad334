import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Conversation } from "./conversation.ts";

describe("sentinel conversations", () => {
  it("maxTurns keeps the last turns, whole", () => {
    const conversation = new Conversation({ type: "maxTurns", maxTurns: 2 });
    for (const n of [1, 2, 3]) conversation.add(`q${n}`, `a${n}`);
    assert.deepEqual(conversation.messages(), [
      { role: "user", content: "q2" },
      { role: "assistant", content: "a2" },
      { role: "user", content: "q3" },
      { role: "assistant", content: "a3" },
    ]);
  });

  it("maxTokens drops the oldest turns until the rest fit, using the reported output tokens", () => {
    const conversation = new Conversation({ type: "maxTokens", maxTokens: 30 });
    conversation.add("x".repeat(40), "short", 10); // 10 + 10 tokens
    conversation.add("y".repeat(20), "short", 2); // 5 + 2 tokens
    conversation.add("z".repeat(20), "short", 2); // 5 + 2 tokens
    assert.deepEqual(
      conversation.messages().map((m) => m.content[0]),
      ["y", "s", "z", "s"],
    );
    assert.equal(conversation.turns, 2);
  });
});
