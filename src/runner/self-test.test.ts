import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveModel } from "../hank/models/index.ts";
import { SKIP_SELF_TEST_ENV, selfTestModels } from "./self-test.ts";

function resolved(id: string) {
  const resolution = resolveModel(id);
  assert.ok(resolution.ok, id);
  return resolution.model;
}

describe("selfTestModels (runner)", () => {
  const models = ["scripted", "gpt-5"].map(resolved);

  it("checks the agent environment, after the HANKWEAVE_ pass-through, one line per failing model", () => {
    assert.deepEqual(selfTestModels(models, {}, undefined), [
      "  - gpt-5: Model gpt-5: no credentials for pi provider 'openai': set OPENAI_API_KEY",
    ]);
    assert.deepEqual(selfTestModels(models, { HANKWEAVE_OPENAI_API_KEY: "k" }, undefined), []);
  });

  it("is skipped when the runtime is told to", () => {
    assert.deepEqual(selfTestModels(models, { [SKIP_SELF_TEST_ENV]: "1" }, undefined), []);
    assert.deepEqual(selfTestModels(models, { [SKIP_SELF_TEST_ENV]: "true" }, undefined), []);
  });
});
