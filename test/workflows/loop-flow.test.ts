import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { setImmediate } from "node:timers/promises";
import { loop, type Result } from "../../src/workflows/index.ts";
import { CODER, chain, mark, REVIEWER, recorder, sandbox, sessionsOf } from "./support.ts";

/** Steps coder, reviewer; iteration i (1-based) marks c<i> then r<i>. */
function conversation(iterations: number, lastWords = "done"): string {
  const actions: string[] = [];
  for (let i = 1; i <= iterations; i++) actions.push(mark(`c${i}`), mark(`r${i}`));
  return chain(actions, lastWords);
}

describe("loop(): steps, data flow and iterations", () => {
  const sb = sandbox("flow");
  after(() => sb.remove());

  it("runs the steps in order, each output the next input, the last feeding the next iteration", async () => {
    const cwd = sb.path();
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: conversation(3, "LGTM"),
      maxIterations: 3,
      cwd,
    });
    assert.equal(sb.read("trail.txt"), "c1\nr1\nc2\nr2\nc3\nr3\n");
    assert.deepEqual(
      result.steps.map((step) => [step.codonId, step.agent, step.iteration, step.step, step.ok]),
      [
        ["coder#0", "coder", 1, 0, true],
        ["reviewer#0", "reviewer", 1, 1, true],
        ["coder#1", "coder", 2, 0, true],
        ["reviewer#1", "reviewer", 2, 1, true],
        ["coder#2", "coder", 3, 0, true],
        ["reviewer#2", "reviewer", 3, 1, true],
      ],
    );
    // Each output is the script the next step ran: the coder of iteration 2 ran what reviewer#0 said.
    assert.ok(result.steps[1]?.output.startsWith(mark("c2")));
    assert.ok(result.steps[2]?.output.startsWith(mark("r2")));
    assert.deepEqual(
      { ok: result.ok, output: result.output, agent: result.agent, iterations: result.iterations },
      { ok: true, output: "LGTM", agent: "reviewer", iterations: 3 },
    );
    assert.equal(result.workspace, cwd);
    assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0);
    assert.equal(
      result.usage.outputTokens,
      result.steps.reduce((sum, step) => sum + step.usage.outputTokens, 0),
    );
  });

  it("asks until about the last step of each iteration, with the 1-based iteration number", async () => {
    const asked: [number, string, number][] = [];
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: conversation(5, "LGTM"),
      cwd: sb.path(),
      until: (last: Result, iteration: number) => {
        asked.push([iteration, last.agent, last.iteration]);
        return iteration === 2;
      },
    });
    assert.deepEqual(asked, [
      [1, "reviewer", 1],
      [2, "reviewer", 2],
    ]);
    assert.deepEqual(
      {
        ok: result.ok,
        converged: result.converged,
        iterations: result.iterations,
        endCause: result.endCause,
      },
      { ok: true, converged: true, iterations: 2, endCause: "until" },
    );
    assert.equal(result.steps.length, 4);
  });

  it("awaits an async until, and judges the last allowed iteration too", async () => {
    const asked: number[] = [];
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: conversation(3, "LGTM"),
      maxIterations: 3,
      cwd: sb.path(),
      until: async (last, iteration) => {
        asked.push(iteration);
        await setImmediate();
        return last.output === "LGTM";
      },
    });
    assert.deepEqual(asked, [1, 2, 3]);
    assert.deepEqual(
      { converged: result.converged, iterations: result.iterations, endCause: result.endCause },
      { converged: true, iterations: 3, endCause: "until" },
    );
  });

  it("runs 5 iterations by default; without until, running them all is the goal (converged)", async () => {
    const result = await loop({
      steps: [CODER],
      input: chain([1, 2, 3, 4, 5, 6].map((i) => mark(`x${i}`))),
      cwd: sb.path(),
    });
    assert.deepEqual(
      {
        ok: result.ok,
        converged: result.converged,
        iterations: result.iterations,
        endCause: result.endCause,
      },
      { ok: true, converged: true, iterations: 5, endCause: "max-iterations" },
    );
    assert.deepEqual(
      result.steps.map((step) => step.codonId),
      ["coder#0", "coder#1", "coder#2", "coder#3", "coder#4"],
    );
  });

  it("is ok but not converged when until never says yes before the cap", async () => {
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: conversation(2),
      maxIterations: 2,
      cwd: sb.path(),
      until: () => false,
    });
    assert.deepEqual(
      {
        ok: result.ok,
        converged: result.converged,
        iterations: result.iterations,
        endCause: result.endCause,
      },
      { ok: true, converged: false, iterations: 2, endCause: "max-iterations" },
    );
    assert.equal(result.error, undefined);
  });

  it("lifetime workflow resumes each agent's own session; task starts fresh ones", async () => {
    const workflow = recorder();
    await loop({
      steps: [CODER, REVIEWER],
      input: conversation(2),
      maxIterations: 2,
      cwd: sb.path(),
      lifetime: "workflow",
      onEvent: workflow.onEvent,
    });
    assert.deepEqual(sessionsOf(workflow.events), [
      "coder#0 s1<--",
      "reviewer#0 s2<--",
      "coder#1 s1<-s1",
      "reviewer#1 s2<-s2",
    ]);
    const task = recorder();
    await loop({
      steps: [CODER, REVIEWER],
      input: conversation(2),
      maxIterations: 2,
      cwd: sb.path(),
      onEvent: task.onEvent,
    });
    assert.deepEqual(sessionsOf(task.events), [
      "coder#0 s1<--",
      "reviewer#0 s2<--",
      "coder#1 s3<--",
      "reviewer#1 s4<--",
    ]);
  });

  it("lifetime workflow: an agent listed twice is one subagent, its steps sharing one session", async () => {
    const workflow = recorder();
    const result = await loop({
      steps: [CODER, REVIEWER, CODER],
      input: chain([mark("c1"), mark("r1"), mark("c2"), mark("c3"), mark("r2"), mark("c4")]),
      maxIterations: 2,
      cwd: sb.path(),
      lifetime: "workflow",
      onEvent: workflow.onEvent,
    });
    assert.equal(result.ok, true, JSON.stringify(result.error));
    // Each coder step resumes the coder's session where the other coder step left it.
    assert.deepEqual(sessionsOf(workflow.events), [
      "coder-1#0 s1<--",
      "reviewer#0 s2<--",
      "coder-3#0 s1<-s1",
      "coder-1#1 s1<-s1",
      "reviewer#1 s2<-s2",
      "coder-3#1 s1<-s1",
    ]);
  });

  it("delivers every journaled event to onEvent, in order", async () => {
    const seen = recorder();
    await loop({ steps: [CODER], input: "@say hi", maxIterations: 1, cwd: sb.path(), onEvent: seen.onEvent });
    const types = new Set(seen.events.map((event) => event.type));
    for (const type of ["codon.started", "assistant.action", "codon.completed", "loop.iteration.completed"]) {
      assert.ok(types.has(type as never), type);
    }
    const seqs = seen.events.map((event) => event.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
  });
});
