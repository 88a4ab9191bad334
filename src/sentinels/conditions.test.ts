import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SentinelCondition } from "../hank/schema/index.ts";
import { compileConditions, valueAt } from "./conditions.ts";

const holds = (condition: SentinelCondition, data: unknown): boolean => compileConditions([condition])(data);

describe("sentinel conditions", () => {
  const data = {
    toolName: "Bash",
    isError: true,
    executionTimeMs: 1200,
    toolInput: { command: "rm -rf build", tags: ["slow", "io"] },
    nothing: null,
  };

  it("equals and notEquals compare strictly, null included", () => {
    assert.equal(holds({ path: "toolName", operator: "equals", value: "Bash" }, data), true);
    assert.equal(holds({ path: "isError", operator: "equals", value: "true" }, data), false);
    assert.equal(holds({ path: "nothing", operator: "equals", value: null }, data), true);
    assert.equal(holds({ path: "toolName", operator: "notEquals", value: "Read" }, data), true);
    assert.equal(holds({ path: "toolName", operator: "notEquals", value: "Bash" }, data), false);
  });

  it("in and notIn test membership", () => {
    assert.equal(holds({ path: "toolName", operator: "in", value: ["Read", "Bash"] }, data), true);
    assert.equal(holds({ path: "executionTimeMs", operator: "in", value: [1, 2] }, data), false);
    assert.equal(holds({ path: "toolName", operator: "notIn", value: ["Read", "Write"] }, data), true);
    assert.equal(holds({ path: "toolName", operator: "notIn", value: ["Bash"] }, data), false);
  });

  it("contains looks into strings and arrays; matches runs a regular expression on strings", () => {
    assert.equal(holds({ path: "toolInput.command", operator: "contains", value: "rm -rf" }, data), true);
    assert.equal(holds({ path: "toolInput.tags", operator: "contains", value: "io" }, data), true);
    assert.equal(holds({ path: "toolInput.tags", operator: "contains", value: "fast" }, data), false);
    assert.equal(holds({ path: "executionTimeMs", operator: "contains", value: "12" }, data), false);
    assert.equal(
      holds({ path: "toolInput.command", operator: "matches", value: "^(rm|mkfs)\\b" }, data),
      true,
    );
    assert.equal(holds({ path: "toolInput.command", operator: "matches", value: "^ls" }, data), false);
    assert.equal(holds({ path: "executionTimeMs", operator: "matches", value: "1" }, data), false);
  });

  it("greaterThan and lessThan compare numbers only", () => {
    assert.equal(holds({ path: "executionTimeMs", operator: "greaterThan", value: 1000 }, data), true);
    assert.equal(holds({ path: "executionTimeMs", operator: "greaterThan", value: 1200 }, data), false);
    assert.equal(holds({ path: "executionTimeMs", operator: "lessThan", value: 5000 }, data), true);
    assert.equal(holds({ path: "toolName", operator: "lessThan", value: 5 }, data), false);
  });

  it("fails every operator on a path the payload does not have, and requires all conditions", () => {
    for (const operator of ["equals", "notEquals"] as const) {
      assert.equal(holds({ path: "toolInput.missing", operator, value: "x" }, data), false);
    }
    assert.equal(holds({ path: "missing", operator: "notIn", value: ["x"] }, data), false);
    const both = compileConditions([
      { path: "toolName", operator: "equals", value: "Bash" },
      { path: "isError", operator: "equals", value: false },
    ]);
    assert.equal(both(data), false);
    assert.equal(compileConditions(undefined)(data), true);
  });

  it("walks own keys of objects and arrays only", () => {
    assert.equal(valueAt(data, ["toolInput", "tags", "1"]), "io");
    assert.equal(valueAt(data, ["toolInput", "constructor"]), undefined);
    assert.equal(valueAt("text", ["length"]), undefined);
  });
});
