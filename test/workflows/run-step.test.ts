import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { run } from "../../src/workflows/index.ts";
import { CODER, sandbox } from "./support.ts";

describe("run(): one agent, one input", () => {
  const sb = sandbox("run");
  after(() => sb.remove());

  it("runs the agent on the input in cwd and returns its answer", async () => {
    const result = await run(CODER, "@write notes.md first note\n@say Wrote notes.md.", { cwd: sb.path() });
    assert.deepEqual(
      { ok: result.ok, agent: result.agent, output: result.output, steps: result.steps.length },
      { ok: true, agent: "coder", output: "Wrote notes.md.", steps: 1 },
    );
    assert.equal(sb.read("notes.md"), "first note");
    assert.equal(result.steps[0]?.codonId, "coder#0");
    assert.deepEqual(result.usage, result.steps[0]?.usage);
    assert.equal("converged" in result, false);
  });

  it("returns a model failure as a result", async () => {
    const result = await run(CODER, "@fail invalid_request_error: Invalid model", { cwd: sb.path() });
    assert.deepEqual(
      { ok: result.ok, kind: result.error?.kind, message: result.error?.message },
      { ok: false, kind: "failed", message: "API invalid request: invalid_request_error: Invalid model" },
    );
  });

  it("a signal already aborted runs nothing and says so", async () => {
    const result = await run(CODER, "@say never", { cwd: sb.path(), signal: AbortSignal.abort() });
    assert.deepEqual([result.ok, result.error?.kind, result.steps.length], [false, "aborted", 0]);
  });
});
