import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  hankOf,
  runHankForTest,
  scriptedCodon,
  startFakeOpenAI,
  startHankForTest,
} from "../../src/testing/index.ts";
import { sentinel } from "./support.ts";

describe("sentinels on the run's clock and models", () => {
  it("debounce on the fake clock while the codon runs: a quiet period sends the batch", async () => {
    const running = startHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@write a.txt 1\n@sleep 1000\n@write b.txt 2\n@sleep 5000\n@write c.txt 3", {
          sentinels: [
            sentinel({
              execution: { strategy: "debounce", milliseconds: 2000 },
              userPromptText:
                "@say <%= it.events.map((e) => e.data.path).join('+') %> queued at <%= it.world.currentTime.getTime() - it.codon.startTime.getTime() %> ms",
            }),
          ],
        }),
      ]),
    });
    await running.waitForEvent("file.updated", (e) => e.data.path === "a.txt");
    await running.clock.advanceToNext((t) => t.delayMs === 1000);
    await running.waitForEvent("file.updated", (e) => e.data.path === "b.txt");
    // b.txt at t=1000 moved the debounce to t=3000; the agent sleeps until t=6000.
    await running.clock.advanceToNext((t) => t.delayMs === 5000);
    const run = await running.done;
    assert.deepEqual(
      run.data("sentinel.output").map((o) => [o.content, o.eventCount]),
      [
        ["a.txt+b.txt queued at 3000 ms", 2],
        ["c.txt queued at 6000 ms", 1],
      ],
    );
    assert.deepEqual(run.clock.pending(), []);
    run.remove();
  });

  it("a conversational sentinel through the real pi SDK against the fake OpenAI server", async () => {
    const fake = await startFakeOpenAI(
      [1, 2, 3].map((n) => ({
        type: "text" as const,
        text: `note ${n}`,
        usage: { inputTokens: 1000, outputTokens: 100 },
      })),
    );
    try {
      const run = await runHankForTest({
        hank: hankOf([
          scriptedCodon("a", "@write a.txt 1\n@write b.txt 2\n@write c.txt 3", {
            sentinels: [
              sentinel({
                model: "openai/gpt-4o-mini",
                systemPromptText: "You keep notes on a coding agent for <%= it.codon.name %>.",
                userPromptText: "File: <%= it.events[0].data.path %>",
                conversational: { trimmingStrategy: { type: "maxTurns", maxTurns: 1 } },
              }),
            ],
          }),
        ]),
        env: {
          PATH: process.env.PATH ?? "",
          HANKWEAVE_PI_OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
          HANKWEAVE_PI_OPENAI_API: "openai-completions",
          OPENAI_API_KEY: "sk-test",
        },
      });
      assert.deepEqual(
        run.data("sentinel.loaded").map((l) => l.model),
        ["openai/gpt-4o-mini"],
      );
      assert.deepEqual(
        run.data("sentinel.output").map((o) => o.content),
        ["note 1", "note 2", "note 3"],
      );
      const sent = fake.requests.map(
        (r) => (r.body as { messages: { role: string; content: string }[] }).messages,
      );
      // maxTurns 1: the history holds the last turn only.
      assert.deepEqual(
        sent.map((messages) => messages.map((m) => m.role).join(",")),
        ["system,user", "system,user,assistant,user", "system,user,assistant,user"],
      );
      assert.equal(sent[2]?.[1]?.content, "File: b.txt");
      assert.equal(sent[0]?.[0]?.content, "You keep notes on a coding agent for a.");
      // gpt-4o-mini prices: 3 × (1000 × $0.15 + 100 × $0.60) per million tokens.
      assert.ok(Math.abs(run.state.totals.cost - (3 * (1000 * 0.15 + 100 * 0.6)) / 1e6) < 1e-12);
      run.remove();
    } finally {
      await fake.close();
    }
  });
});
