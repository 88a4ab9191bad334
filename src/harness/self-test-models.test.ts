import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveModel } from "../hank/models/index.ts";
import { harnessProblem } from "./availability.ts";
import { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
import { claudeDescriptor } from "./claude/descriptor.ts";
import { commandDescriptor } from "./command/descriptor.ts";
import { parseCommandConfig } from "./command/index.ts";
import { piDescriptor } from "./pi/descriptor.ts";
import { scriptedDescriptor } from "./scripted/descriptor.ts";
import { selfTestModels } from "./self-test-models.ts";

function resolved(id: string) {
  const resolution = resolveModel(id);
  assert.ok(resolution.ok, id);
  return resolution.model;
}

function commands() {
  const parsed = parseCommandConfig({ commands: { echo: { command: "echo", args: ["{prompt}"] } } });
  assert.ok(parsed.ok);
  return parsed.config;
}

describe("descriptor self-tests", () => {
  it("scripted passes with nothing", () => {
    assert.equal(scriptedDescriptor.selfTest(resolved("scripted/fail"), {}, {}), undefined);
  });

  it("claude without credentials reports the missing key, with the hint", () => {
    const problem = claudeDescriptor.selfTest(resolved("haiku"), { PATH: "/bin" }, {}) ?? "";
    assert.match(problem, /^No credentials for Claude models were found\. Set ANTHROPIC_API_KEY/);
    assert.match(problem, /HANKWEAVE_CLAUDE_CONFIG_DIR/);
    assert.equal(claudeDescriptor.selfTest(resolved("haiku"), { ANTHROPIC_API_KEY: "k" }, {}), undefined);
  });

  it("pi without credentials names the variable to set", () => {
    assert.equal(
      piDescriptor.selfTest(resolved("gpt-5"), {}, {}),
      "Model gpt-5: no credentials for pi provider 'openai': set OPENAI_API_KEY",
    );
    assert.equal(piDescriptor.selfTest(resolved("gpt-5"), { OPENAI_API_KEY: "k" }, {}), undefined);
  });

  it("command without a commands file says so; with one, it checks the name", () => {
    const model = resolved("command/echo");
    assert.equal(
      commandDescriptor.selfTest(model, {}, {}),
      "no hankweave.commands.json defines command agents",
    );
    assert.equal(commandDescriptor.selfTest(model, {}, { commands: commands() }), undefined);
    assert.match(
      commandDescriptor.selfTest(resolved("command/ech"), {}, { commands: commands() }) ?? "",
      /^Unknown command model "command\/ech" \(configured: echo\)/,
    );
  });
});

describe("selfTestModels", () => {
  it("asks each model's descriptor and lists the failing models in order", () => {
    const models = ["scripted", "gpt-5", "haiku", "command/echo"].map(resolved);
    const failures = selfTestModels(models, { ANTHROPIC_API_KEY: "k" }, {});
    assert.deepEqual(failures, [
      {
        requested: "gpt-5",
        problem: "Model gpt-5: no credentials for pi provider 'openai': set OPENAI_API_KEY",
      },
      { requested: "command/echo", problem: "no hankweave.commands.json defines command agents" },
    ]);
  });

  it("reports a model whose kind no descriptor registers", () => {
    const scriptedOnly = BUILTIN_HARNESSES.filter((d) => d.kind === "scripted");
    assert.deepEqual(selfTestModels([resolved("haiku")], {}, {}, scriptedOnly), [
      { requested: "haiku", problem: "no harness 'claude' is registered (registered: scripted)" },
    ]);
  });
});

describe("harnessProblem", () => {
  it("asks the descriptor: the SDKs installed here resolve, and the others need none", () => {
    for (const kind of ["claude", "pi", "scripted", "command"] as const) {
      assert.equal(harnessProblem(kind), undefined, kind);
    }
  });

  it("gives the install hint of a missing SDK, and names unregistered kinds", () => {
    const missing = { ...piDescriptor, availability: () => "Install it." };
    assert.equal(harnessProblem("pi", [missing]), "Install it.");
    assert.equal(harnessProblem("claude", [missing]), "No harness 'claude' is registered (registered: pi).");
  });
});
