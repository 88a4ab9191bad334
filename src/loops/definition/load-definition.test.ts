import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "smol-toml";
import { loopJsonSchema } from "./definition-json-schema.ts";
import { loadDefinition, parseDefinition } from "./load-definition.ts";

const dir = mkdtempSync(join(tmpdir(), "loop-def-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "hank"));
writeFileSync(join(dir, "hank", "hank.json"), "{}");
writeFileSync(join(dir, "check.sh"), "#!/bin/sh\nexit 0\n");
const file = join(dir, "fix.loop.toml");

const VALID = `
id = "fix-tests"
name = "Fix the tests"
owner = "me"
cadence = "manual"
hank = "./hank"

[contract]
goal = "tests pass"
iteration_cap = 5

[contract.budget]
tokens = 2_000_000
on_exceeded = "escalate"

[[gates]]
id = "tests"
kind = "command"
run = ["./check.sh", "--fast"]
`;

describe("loop definitions", () => {
  test("a valid definition loads with defaults and absolute paths", () => {
    const loaded = parseDefinition(VALID, file);
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.issues));
    const { definition } = loaded;
    assert.equal(definition.kind, "delivery");
    assert.equal(definition.on_interrupted, "resume");
    assert.equal(definition.hank, join(dir, "hank"));
    assert.deepEqual(definition.gates[0]?.kind === "command" && definition.gates[0].run, [
      join(dir, "check.sh"),
      "--fast",
    ]);
    assert.equal(definition.contract.budget?.tokens, 2_000_000);
    assert.equal(definition.gates[0]?.kind === "command" && definition.gates[0].timeout_sec, 600);
  });

  test("every issue is reported at once, with its path, message and fix", () => {
    const text = `
id = "Bad Id"
name = "x"
kind = "delivrey"
hank = "./missing"
colour = "red"

[contract]
goal = "g"
iteration_cap = -1
max_cost_usd = 5

[contract.no_progress]
windw = 3

[[gates]]
id = "a"
kind = "jduge"
`;
    const loaded = parseDefinition(text, file);
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    const byCode = (code: string) => loaded.issues.filter((issue) => issue.code === code);
    assert.ok(byCode("invalid-format").some((i) => i.path.join(".") === "id"));
    const kind = loaded.issues.find((i) => i.path.join(".") === "kind");
    assert.match(kind?.hint ?? "", /Did you mean "delivery"/);
    assert.ok(byCode("unknown-field").some((i) => i.path.join(".") === "colour"));
    const typo = byCode("unknown-field").find((i) => i.path.join(".") === "contract.no_progress.windw");
    assert.match(typo?.hint ?? "", /window/);
    const cost = byCode("cost-is-a-meter")[0];
    assert.deepEqual(cost?.path, ["contract", "max_cost_usd"]);
    assert.match(cost?.message ?? "", /meter/);
    assert.ok(byCode("too-small").some((i) => i.path.join(".") === "contract.iteration_cap"));
    const gate = loaded.issues.find((i) => i.path.join(".") === "gates.0.kind");
    assert.match(gate?.hint ?? "", /judge/);
    for (const issue of loaded.issues) {
      assert.equal(issue.file, file);
      assert.ok(issue.message.length > 0 && issue.hint.length > 0);
    }
  });

  test("a loop id longer than 64 characters is refused at its path", () => {
    const long = "a".repeat(300);
    const loaded = parseDefinition(VALID.replace('id = "fix-tests"', `id = "${long}"`), file);
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    const issue = loaded.issues.find((i) => i.path.join(".") === "id");
    assert.equal(issue?.code, "too-big");
    assert.match(issue?.message ?? "", /at most 64/);
    assert.ok((issue?.hint ?? "").length > 0);
  });

  test("rules beyond the schema: watch table, duplicate gates, files, schedule", () => {
    const text = `
id = "w"
name = "w"
kind = "watch"
hank = "./hank"
escalation = ["./notify.sh"]
[contract]
goal = "g"
[trigger]
schedule = "99 * * *"
[fan_out]
items = ["./items.sh"]
[[gates]]
id = "a"
kind = "human"
[[gates]]
id = "a"
kind = "judge"
model = "scripted"
instructions = "./judge.md"
`;
    const loaded = parseDefinition(text, file);
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    const codes = loaded.issues.map((i) => i.code).sort();
    assert.deepEqual(codes, [
      "duplicate-gate-id",
      "human-gate-with-fan-out",
      "instructions-not-found",
      "invalid-schedule",
      "missing-watch",
      "program-not-found",
      "program-not-found",
    ]);
  });

  test("a TOML syntax error names the line", () => {
    const loaded = parseDefinition('id = "x"\nname = [\n', file);
    assert.equal(loaded.ok, false);
    if (!loaded.ok) assert.match(loaded.issues[0]?.message ?? "", /line 3/);
  });

  test("a missing file is an issue, not a throw", () => {
    const loaded = loadDefinition(join(dir, "nope.loop.toml"));
    assert.equal(loaded.ok, false);
    if (!loaded.ok) assert.equal(loaded.issues[0]?.code, "file-not-found");
  });

  test("the JSON Schema export accepts a valid definition and rejects a cost field", () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(loopJsonSchema());
    assert.equal(validate(parse(VALID)), true, JSON.stringify(validate.errors));
    const withCost = { ...parse(VALID), max_cost_usd: 3 };
    assert.equal(validate(withCost), false);
  });
});
