import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loop } from "./loop.ts";
import { checkLoopOptions, DEFAULT_MAX_ITERATIONS } from "./loop-options.ts";
import { run } from "./run-step.ts";
import { WorkflowArgumentError } from "./workflow-argument-error.ts";

const coder = { name: "coder", model: "scripted" };
const reviewer = { name: "reviewer", model: "scripted" };

/** The argument names of the thrown error (which must be a WorkflowArgumentError). */
async function rejected(call: () => Promise<unknown>): Promise<string[]> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof WorkflowArgumentError, String(error));
    assert.equal(error.code, "invalid-argument");
    for (const issue of error.issues) assert.ok(error.message.includes(issue.argument), error.message);
    return error.issues.map((issue) => issue.argument);
  }
  assert.fail("expected a WorkflowArgumentError");
}

describe("loop() arguments", () => {
  it("applies the defaults: 5 iterations, lifetime task, no budget", () => {
    const checked = checkLoopOptions({ steps: [coder], input: "go" });
    assert.equal(checked.maxIterations, DEFAULT_MAX_ITERATIONS);
    assert.equal(checked.maxIterations, 5);
    assert.equal(checked.lifetime, "task");
    assert.deepEqual(checked.budget, {});
  });

  it("throws on each invalid argument, naming it", async () => {
    const cases: [unknown, string[]][] = [
      [{ steps: [], input: "go" }, ["options.steps"]],
      [{ steps: [coder], input: "   " }, ["options.input"]],
      [{ steps: [coder], input: "go", maxIterations: 0 }, ["options.maxIterations"]],
      [{ steps: [coder], input: "go", maxIterations: 1.5 }, ["options.maxIterations"]],
      [{ steps: [{ name: "coder" }], input: "go" }, ["options.steps[0].model"]],
      [{ steps: [coder, { name: "", model: "scripted" }], input: "go" }, ["options.steps[1].name"]],
      [{ steps: [coder], input: "go", until: "LGTM" }, ["options.until"]],
      [{ steps: [coder], input: "go", lifetime: "session" }, ["options.lifetime"]],
      [{ steps: [coder], input: "go", timeoutMs: -1 }, ["options.timeoutMs"]],
      [{ steps: [coder], input: "go", budget: { dollars: 0 } }, ["options.budget.dollars"]],
      [{ steps: [coder], input: "go", budget: { tokens: 2.5 } }, ["options.budget.tokens"]],
      [{ steps: [coder], input: "go", maxIteration: 3 }, ["options.maxIteration"]],
      [{ steps: [coder], input: "go", cwd: "/nonexistent/hankweave" }, ["options.cwd"]],
      [
        { steps: [coder, { ...coder, instructions: "another agent" }], input: "go", lifetime: "workflow" },
        ["options.steps[1]"],
      ],
      [{ steps: [{ ...coder, tools: ["bash"] }], input: "go" }, ["options.steps[0].tools"]],
      [{ steps: [{ ...coder, model: "sonet-4" }], input: "go" }, ["options.steps[0].model"]],
      [{ steps: [coder], input: "go", model: "not-a-model-xyz" }, ["options.model"]],
    ];
    for (const [options, names] of cases) {
      assert.deepEqual(await rejected(() => loop(options as never)), names, JSON.stringify(options));
    }
  });

  it("refuses a durable directory inside cwd before writing anything", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "hankweave-loop-cwd-"));
    try {
      const dir = join(cwd, "state");
      const options = { steps: [coder], input: "go", cwd, durable: { dir } };
      assert.deepEqual(await rejected(() => loop(options)), ["options.durable.dir"]);
      assert.deepEqual(readdirSync(cwd), [], "nothing written into cwd");
      const outside = checkLoopOptions({ ...options, durable: { dir: `${cwd}-state` } });
      assert.equal(outside.durable?.dir, `${cwd}-state`, "a sibling whose name starts the same is outside");
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("lists every invalid argument at once", async () => {
    const names = await rejected(() => loop({ steps: [], input: "", maxIterations: 0 } as never));
    assert.deepEqual(names.sort(), ["options.input", "options.maxIterations", "options.steps"]);
  });

  it("names run()'s own parameters", async () => {
    assert.deepEqual(await rejected(() => run({ name: "coder" } as never, "go")), ["agent.model"]);
    assert.deepEqual(await rejected(() => run(coder, "")), ["input"]);
    assert.deepEqual(await rejected(() => run({ ...reviewer, model: "sonet-4" }, "go")), ["agent.model"]);
  });
});
