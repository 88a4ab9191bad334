import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type HarnessKind, resolveModel } from "../hank/models/index.ts";
import { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
import { descriptorForModel, descriptorOfKind } from "./find-descriptor.ts";

/** Every kind the resolver can name; a new kind fails to compile here until it is listed. */
const KINDS: Record<HarnessKind, true> = { claude: true, pi: true, scripted: true, command: true };

const IDS = [
  "scripted",
  "scripted/fail",
  "SCRIPTED/Loud",
  "command/codex",
  "command/pi/openai/gpt-5",
  "pi/openai/gpt-5",
  "pi/anthropic/claude-sonnet-4-5",
  "pi/local/qwen3",
  "haiku",
  "sonnet",
  "anthropic/opus",
  "claude-haiku-4-5",
  "anthropic/claude-haiku-4-5",
  "gpt-5",
  "openai/gpt-5",
  "gpt-5-high",
  "openai/gpt-oss-120b",
];

describe("descriptorForModel", () => {
  it("picks the harness the model resolver chose, for every kind of id", () => {
    for (const id of IDS) {
      const resolution = resolveModel(id);
      assert.ok(resolution.ok, id);
      const { model } = resolution;
      assert.equal(descriptorForModel(BUILTIN_HARNESSES, model)?.kind, model.harness, id);
    }
  });

  it("covers every kind exactly once", () => {
    const kinds = BUILTIN_HARNESSES.map((d) => d.kind);
    assert.deepEqual([...kinds].sort(), Object.keys(KINDS).sort());
    for (const kind of kinds) assert.equal(descriptorOfKind(BUILTIN_HARNESSES, kind)?.kind, kind);
  });

  it("finds nothing when no descriptor takes the model", () => {
    const scriptedOnly = BUILTIN_HARNESSES.filter((d) => d.kind === "scripted");
    assert.equal(descriptorForModel(scriptedOnly, { requested: "gpt-5", provider: "openai" }), undefined);
    assert.equal(descriptorOfKind(scriptedOnly, "pi"), undefined);
  });
});
