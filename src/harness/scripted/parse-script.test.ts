import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatScriptErrors, parseScript } from "./parse-script.ts";

function steps(prompt: string) {
  const parsed = parseScript(prompt);
  assert.equal(parsed.ok, true, JSON.stringify(parsed));
  return parsed.ok ? parsed.steps : [];
}

function errors(prompt: string) {
  const parsed = parseScript(prompt);
  assert.equal(parsed.ok, false);
  return parsed.ok ? [] : parsed.errors;
}

describe("parseScript", () => {
  it("parses file directives with escapes", () => {
    assert.deepEqual(
      steps("@write notes/a.txt hello\\nworld\n@append log.txt  one \\\\n two\n@delete old.txt"),
      [
        { kind: "write", line: 1, path: "notes/a.txt", text: "hello\nworld" },
        { kind: "append", line: 2, path: "log.txt", text: "one \\n two" },
        { kind: "delete", line: 3, path: "old.txt" },
      ],
    );
  });

  it("allows an empty text for @write and @append", () => {
    assert.deepEqual(steps("@write empty.txt\n@append empty.txt"), [
      { kind: "write", line: 1, path: "empty.txt", text: "" },
      { kind: "append", line: 2, path: "empty.txt", text: "" },
    ]);
  });

  it("parses @run verbatim, without escapes", () => {
    assert.deepEqual(steps("@run printf 'a\\nb' && echo done"), [
      { kind: "run", line: 1, command: "printf 'a\\nb' && echo done" },
    ]);
  });

  it("parses @say and @think", () => {
    assert.deepEqual(steps("@say Done.\\nBye\n@think hmm"), [
      { kind: "say", line: 1, text: "Done.\nBye" },
      { kind: "think", line: 2, text: "hmm" },
    ]);
  });

  it("parses @usage with defaults and in any order", () => {
    assert.deepEqual(
      steps("@usage output=20 input=100\n@usage input=1 output=2 cacheRead=3 cacheWrite=4 cost=0.25"),
      [
        { kind: "usage", line: 1, usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, cost: 0 } },
        { kind: "usage", line: 2, usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: 0.25 } },
      ],
    );
    const parsed = parseScript("@usage input=1 output=1");
    assert.equal(parsed.ok && parsed.hasUsage, true);
  });

  it("parses @fail with and without attempts", () => {
    assert.deepEqual(steps("@fail API Error: 500\n@fail attempts=1,3 429 rate_limit_error"), [
      { kind: "fail", line: 1, text: "API Error: 500" },
      { kind: "fail", line: 2, when: { attempts: [1, 3] }, text: "429 rate_limit_error" },
    ]);
  });

  it("parses @exhaust-context, @max-tokens and @sleep", () => {
    assert.deepEqual(steps("@exhaust-context\n@max-tokens\n@sleep 250"), [
      { kind: "exhaust-context", line: 1 },
      { kind: "max-tokens", line: 2, continues: false },
      { kind: "sleep", line: 3, ms: 250 },
    ]);
  });

  it("joins consecutive prose lines into one message, split by directives", () => {
    const prompt = "# Task\n\n  Write the report.\r\n@say ok\nThen stop.\n@team, please review\n@src/a.ts";
    assert.deepEqual(steps(prompt), [
      { kind: "prose", line: 1, text: "# Task\n  Write the report." },
      { kind: "say", line: 4, text: "ok" },
      { kind: "prose", line: 5, text: "Then stop.\n@team, please review\n@src/a.ts" },
    ]);
    const parsed = parseScript(prompt);
    assert.equal(parsed.ok && parsed.hasUsage, false);
  });

  it("accepts indented directives", () => {
    assert.deepEqual(steps("   @say indented"), [{ kind: "say", line: 1, text: "indented" }]);
  });

  it("reports every bad directive with its line number", () => {
    const prompt = [
      "prose",
      "@write",
      "@usage input=10",
      "@usage input=x output=1",
      "@usage input=1 output=1 tokens=3",
      "@usage input=1 input=2 output=1",
      "@usage input=1 output=1 cost=-1",
      "@fail attempts=0 boom",
      "@fail attempts=1",
      "@sleep soon",
      "@exhaust-context now",
      "@max-tokens 10",
      "@delete a b",
      "@run",
      "@say",
      "@think",
      "@wirte a.txt x",
      "@Say hi",
      "@append",
    ].join("\n");
    assert.deepEqual(errors(prompt), [
      { line: 2, message: "@write needs a path: @write <path> <text>" },
      { line: 3, message: "@usage needs input=<n> and output=<n>" },
      { line: 4, message: '@usage: input must be a whole number of tokens, got "x"' },
      {
        line: 5,
        message: '@usage: "tokens=3" is not a known field (input, output, cacheRead, cacheWrite, cost)',
      },
      { line: 6, message: "@usage: input is given twice" },
      { line: 7, message: '@usage: cost must be a non-negative number of dollars, got "-1"' },
      {
        line: 8,
        message: '@fail: attempts must be a comma-separated list of attempt numbers from 1, got "0"',
      },
      { line: 9, message: "@fail needs an error text: @fail [attempts=1,2] <error text>" },
      { line: 10, message: '@sleep needs a whole number of milliseconds, got "soon"' },
      { line: 11, message: '@exhaust-context takes no arguments, got "now"' },
      {
        line: 12,
        message:
          '@max-tokens: "10" is not a tool (write, append, delete, run): @max-tokens [continue] <write|append|delete|run> <path or command>',
      },
      { line: 13, message: '@delete takes one path, got "a b"' },
      { line: 14, message: "@run needs a shell command: @run <command>" },
      { line: 15, message: "@say needs a text: @say <text>" },
      { line: 16, message: "@think needs a text: @think <text>" },
      { line: 17, message: "Unknown directive @wirte; did you mean @write?" },
      { line: 18, message: "Unknown directive @Say; did you mean @say?" },
      { line: 19, message: "@append needs a path: @append <path> <text>" },
    ]);
  });

  it("formats errors into one message", () => {
    assert.equal(
      formatScriptErrors([
        { line: 2, message: "a" },
        { line: 5, message: "b" },
      ]),
      "Bad scripted prompt (2 errors): line 2: a; line 5: b",
    );
    assert.equal(formatScriptErrors([{ line: 1, message: "a" }]), "Bad scripted prompt (1 error): line 1: a");
  });
});
