import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCommandConfig } from "./command-config.ts";
import { parseCommandModelId, resolveCommandModel } from "./command-model-id.ts";
import { expandArgs, placeholdersIn } from "./expand-args.ts";

const CLAUDE = {
  command: "claude",
  args: ["-p", "{prompt}", "--output-format", "stream-json", "--verbose", "--model", "{model}"],
  resumeArgs: ["-p", "{prompt}", "--resume", "{sessionId}", "--output-format", "stream-json", "--verbose"],
  output: "claude-stream-json",
  model: "claude-sonnet-4-5",
};

describe("parseCommandConfig", () => {
  it("accepts a config and fills the defaults", () => {
    const result = parseCommandConfig({
      commands: { claude: CLAUDE, script: { command: "./agent.sh", stdin: true } },
    });
    assert.equal(result.ok, true);
    assert.deepEqual(result.ok && result.config.commands.script, {
      command: "./agent.sh",
      args: [],
      stdin: true,
      output: "text",
      env: {},
      killGraceMs: 5000,
    });
  });

  it("reports schema problems with their JSON paths", () => {
    const result = parseCommandConfig({
      commands: { "Bad/Name": { command: "x", args: ["{prompt}"] }, ok: { args: [], output: "xml" } },
    });
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.issues.map((i) => [i.code, i.path.join(".")]), [
      ["command-config", "commands.Bad/Name"],
      ["command-config", "commands.ok.command"],
      ["command-config", "commands.ok.output"],
    ]);
  });

  it("rejects unknown placeholders, a prompt that never reaches the agent, and resume without {sessionId}", () => {
    const result = parseCommandConfig({
      commands: { a: { command: "a", args: ["-p", "{promt}"], resumeArgs: ["--continue", "{prompt}"] } },
    });
    assert.equal(result.ok, false);
    assert.deepEqual(
      !result.ok &&
        result.issues.map((i) => ({ code: i.code, path: i.path, message: i.message, hint: i.hint })),
      [
        {
          code: "command-placeholder",
          path: ["commands", "a", "args"],
          message: "Unknown placeholder {promt} in args",
          hint: "Did you mean {prompt}? Placeholders: {prompt}, {promptFile}, {model}, {sessionId}, {systemPrompt}, {cwd}.",
        },
        {
          code: "command-no-prompt",
          path: ["commands", "a", "args"],
          message: 'Command "a" never passes the prompt to the agent',
          hint: 'Put "{prompt}" or "{promptFile}" in the arguments, or set "stdin": true.',
        },
        {
          code: "command-placeholder",
          path: ["commands", "a", "resumeArgs"],
          message: "resumeArgs never pass {sessionId}, so a resumed session cannot be named",
          hint: 'Add the session argument of the agent, e.g. "--resume", "{sessionId}".',
        },
      ],
    );
  });
});

describe("command model ids", () => {
  it("splits command/<name>[/<model>]", () => {
    assert.deepEqual(parseCommandModelId("command/claude"), { name: "claude" });
    assert.deepEqual(parseCommandModelId("command/pi/openai/gpt-5"), { name: "pi", model: "openai/gpt-5" });
    assert.equal(parseCommandModelId("command/"), undefined);
    assert.equal(parseCommandModelId("sonnet"), undefined);
  });

  it("resolves a configured command, the id's model winning over the configured one", () => {
    const parsed = parseCommandConfig({ commands: { claude: CLAUDE } });
    assert.ok(parsed.ok);
    const plain = resolveCommandModel(parsed.config, "command/claude");
    assert.equal(plain.ok && plain.model, "claude-sonnet-4-5");
    const named = resolveCommandModel(parsed.config, "command/claude/claude-opus-4-1");
    assert.equal(named.ok && named.model, "claude-opus-4-1");
    assert.equal(named.ok && named.command.name, "claude");
    assert.deepEqual(resolveCommandModel(parsed.config, "command/claud"), {
      ok: false,
      message: 'Unknown command model "command/claud" (configured: claude)',
      suggestions: ["command/claude"],
    });
  });
});

describe("expandArgs", () => {
  it("replaces placeholders inside arguments without splitting them", () => {
    const args = ["-p", "{prompt}", "--model={model}", "{cwd}/x", "{literal}"];
    assert.deepEqual(placeholdersIn(args), ["prompt", "model", "cwd", "literal"]);
    assert.deepEqual(expandArgs(args, { prompt: 'say "hi" there', model: "m", cwd: "/w" }), {
      ok: true,
      args: ["-p", 'say "hi" there', "--model=m", "/w/x", "{literal}"],
    });
    assert.deepEqual(expandArgs(["{model}", "{sessionId}"], {}), {
      ok: false,
      missing: ["model", "sessionId"],
    });
  });
});
