import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileStructured, type StructuredSpec } from "./structured-output.ts";

function spec(config: Parameters<typeof compileStructured>[0], text?: string): StructuredSpec {
  const compiled = compileStructured(config, text);
  assert.ok(compiled.ok, compiled.ok ? "" : compiled.message);
  return compiled.spec;
}

const RISK_JSON = JSON.stringify({
  type: "object",
  properties: {
    risk: { type: "string", enum: ["low", "high"] },
    files: { type: "array", items: { type: "string" } },
  },
  required: ["risk"],
});

describe("structured sentinel output", () => {
  it("accepts a JSON reply that matches a JSON Schema, code fence or not, and rejects one that does not", () => {
    const risk = spec({ output: "object", schemaStr: RISK_JSON }, RISK_JSON);
    assert.deepEqual(risk.accept('{"risk":"low","files":["a.ts"]}'), {
      ok: true,
      value: { risk: "low", files: ["a.ts"] },
    });
    assert.deepEqual(risk.accept('```json\n{"risk":"high"}\n```'), { ok: true, value: { risk: "high" } });
    const wrong = risk.accept('{"risk":"medium"}');
    assert.equal(wrong.ok, false);
    assert.match(wrong.ok ? "" : wrong.message, /does not match the schema/);
    const prose = risk.accept("The risk is low.");
    assert.match(prose.ok ? "" : prose.message, /not JSON/);
    assert.match(risk.instruction, /one JSON value that matches this JSON Schema/);
    assert.ok(risk.instruction.includes('"required":["risk"]'));
  });

  it("evaluates a zod expression, the reference runtime's schema form", () => {
    const text = "z.object({ summary: z.string(), severity: z.enum(['info', 'warn']) })";
    const zodSpec = spec({ output: "object", schemaStr: text }, text);
    assert.deepEqual(zodSpec.accept('{"summary":"ok","severity":"info"}'), {
      ok: true,
      value: { summary: "ok", severity: "info" },
    });
    assert.equal(zodSpec.accept('{"summary":"ok"}').ok, false);
    assert.ok(
      zodSpec.instruction.includes('"severity"'),
      "the expression is shown to the model as JSON Schema",
    );
  });

  it("checks every item of an array output", () => {
    const text = "z.object({ task: z.string() })";
    const tasks = spec({ output: "array", schemaStr: text }, text);
    assert.deepEqual(tasks.accept('[{"task":"a"},{"task":"b"}]'), {
      ok: true,
      value: [{ task: "a" }, { task: "b" }],
    });
    assert.equal(tasks.accept('[{"task":"a"},{"job":"b"}]').ok, false);
    assert.equal(tasks.accept('{"task":"a"}').ok, false);
  });

  it("takes one of the enum values, quoted or not", () => {
    const level = spec({ output: "enum", enumValues: ["none", "low", "high"] });
    assert.deepEqual(level.accept(" high\n"), { ok: true, value: "high" });
    assert.deepEqual(level.accept('"low"'), { ok: true, value: "low" });
    assert.equal(level.accept("critical").ok, false);
    assert.match(level.instruction, /none, low, high/);
  });

  it("reports a schema that is neither JSON Schema nor a zod expression", () => {
    const broken = compileStructured({ output: "object", schemaStr: "z.object({" }, "z.object({");
    assert.equal(broken.ok, false);
    assert.match(broken.ok ? "" : broken.message, /neither a JSON Schema nor a zod expression/);
    const notZod = compileStructured({ output: "object", schemaStr: "42" }, "42");
    assert.match(notZod.ok ? "" : notZod.message, /does not evaluate to a zod schema/);
  });
});
