import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/events/index.ts";
import { createFakeClock } from "../../src/testing/index.ts";
import { type LoopResult, loop } from "../../src/workflows/index.ts";
import { CODER, chain, mark, REVIEWER, sandbox } from "./support.ts";

/** What a test checks first about how a loop ended. */
function ending(result: LoopResult) {
  return {
    ok: result.ok,
    converged: result.converged,
    endCause: result.endCause,
    error: result.error?.kind,
    steps: result.steps.map((step) => `${step.codonId}:${step.ok ? "ok" : step.error?.kind}`),
  };
}

/** Resolves once `onEvent` has seen an event matching `match`. */
function eventSeen(match: (event: JournaledEvent) => boolean) {
  let seen: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    seen = resolve;
  });
  return { promise, onEvent: (event: JournaledEvent) => (match(event) ? seen() : undefined) };
}

describe("loop(): how a loop ends when something goes wrong", () => {
  const sb = sandbox("ends");
  after(() => sb.remove());

  it("returns a failing step as is, with every step before it, and never throws", async () => {
    const input = chain([mark("c1"), mark("r1"), mark("c2"), "@fail Your credit balance is too low"]);
    const result = await loop({ steps: [CODER, REVIEWER], input, cwd: sb.path() });
    assert.deepEqual(ending(result), {
      ok: false,
      converged: false,
      endCause: "failed",
      error: "failed",
      steps: ["coder#0:ok", "reviewer#0:ok", "coder#1:ok", "reviewer#1:failed"],
    });
    assert.equal(result.error?.message, "API billing/usage error: Your credit balance is too low");
    assert.deepEqual([result.iterations, result.agent, result.output], [2, "reviewer", ""]);
  });

  it("retries a retriable failure in place when the agent asks for it", async () => {
    const flaky = { ...REVIEWER, retry: { maxAttempts: 2, delayMs: 0 } };
    const input = chain([mark("c1"), `@fail attempts=1 API Error: 503 Service Unavailable\n${mark("r1")}`]);
    const result = await loop({ steps: [CODER, flaky], input, maxIterations: 1, cwd: sb.path() });
    assert.deepEqual(ending(result), {
      ok: true,
      converged: true,
      endCause: "max-iterations",
      error: undefined,
      steps: ["coder#0:ok", "reviewer#0:ok"],
    });
  });

  it("cancel: the running step ends aborted and the result says so", async () => {
    const controller = new AbortController();
    const working = eventSeen(
      (event) => event.type === "assistant.action" && event.data.codonId === "reviewer#0",
    );
    void working.promise.then(() => controller.abort());
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: chain([mark("c1"), "@say reviewing\n@sleep 600000"]),
      cwd: sb.path(),
      clock: createFakeClock(),
      signal: controller.signal,
      onEvent: working.onEvent,
    });
    assert.deepEqual(ending(result), {
      ok: false,
      converged: false,
      endCause: "aborted",
      error: "aborted",
      steps: ["coder#0:ok", "reviewer#0:aborted"],
    });
  });

  it("timeoutMs: a step past its deadline is stopped and fails with timeout", async () => {
    const clock = createFakeClock();
    const started = eventSeen(
      (event) => event.type === "assistant.action" && event.data.codonId === "coder#1",
    );
    const running = loop({
      steps: [CODER],
      input: chain([mark("x1"), "@say thinking\n@sleep 600000"]),
      timeoutMs: 2000,
      cwd: sb.path(),
      clock,
      onEvent: started.onEvent,
    });
    await started.promise;
    await clock.nextTimer((timer) => timer.delayMs === 600_000);
    clock.advance(2000);
    const result = await running;
    assert.deepEqual(ending(result), {
      ok: false,
      converged: false,
      endCause: "failed",
      error: "timeout",
      steps: ["coder#0:ok", "coder#1:timeout"],
    });
    assert.match(result.error?.message ?? "", /timeoutMs 2000/);
  });

  it("a dollar budget stops the step that crosses it and ends the loop with cause budget", async () => {
    const spend = (line: string) => `${mark(line)}\n@usage input=10 output=10 cost=0.6`;
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: chain([spend("c1"), spend("r1"), spend("c2"), spend("r2")]),
      budget: { dollars: 1 },
      cwd: sb.path(),
    });
    assert.deepEqual(ending(result), {
      ok: false,
      converged: false,
      endCause: "budget",
      error: "budget",
      steps: ["coder#0:ok", "reviewer#0:budget"],
    });
    assert.equal(
      result.error?.message,
      "The workflow's budget ran out during this step: the step spent $0.6 (cost) where $0.4 of it was left.",
    );
    assert.equal(result.usage.costUsd, 1.2, "summed without float noise");
  });

  it("a token budget ends the loop after the step that reaches it", async () => {
    const spend = (line: string) => `${mark(line)}\n@usage input=20 output=10`;
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: chain([spend("c1"), spend("r1"), spend("c2"), spend("r2")]),
      budget: { tokens: 50 },
      until: () => false,
      cwd: sb.path(),
    });
    assert.deepEqual(ending(result), {
      ok: true,
      converged: false,
      endCause: "budget",
      error: undefined,
      steps: ["coder#0:ok", "reviewer#0:ok"],
    });
    assert.equal(result.usage.inputTokens + result.usage.outputTokens, 60);
  });

  it("an until that throws ends the loop with the error, without throwing", async () => {
    const result = await loop({
      steps: [CODER],
      input: chain([mark("x1"), mark("x2")]),
      cwd: sb.path(),
      until: () => {
        throw new Error("the judge crashed");
      },
    });
    assert.deepEqual(ending(result), {
      ok: false,
      converged: false,
      endCause: "failed",
      error: "until",
      steps: ["coder#0:ok"],
    });
    assert.equal(result.error?.message, "until threw: the judge crashed");
  });
});
