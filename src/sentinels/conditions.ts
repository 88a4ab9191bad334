import type { SentinelCondition } from "../hank/schema/index.ts";

/** A compiled condition list: true when every condition holds for the payload (AND; empty is true). */
export type PayloadTest = (data: unknown) => boolean;

/**
 * Compiles conditions once, at load: paths are split and `matches` patterns built here, so testing an
 * event walks a few keys and compares. A value the path does not reach fails every operator, `notIn` and
 * `notEquals` included (the reference's rule: a missing field never matches). Throws on an invalid
 * `matches` pattern (validation reports it first).
 */
export function compileConditions(conditions: readonly SentinelCondition[] | undefined): PayloadTest {
  if (conditions === undefined || conditions.length === 0) return () => true;
  const tests = conditions.map(compileCondition);
  return (data) => {
    for (const test of tests) if (!test(data)) return false;
    return true;
  };
}

function compileCondition(condition: SentinelCondition): PayloadTest {
  const parts = condition.path.split(".");
  const compare = comparison(condition);
  return (data) => {
    const actual = valueAt(data, parts);
    return actual !== undefined && compare(actual);
  };
}

function comparison(condition: SentinelCondition): (actual: unknown) => boolean {
  switch (condition.operator) {
    case "equals":
      return (actual) => actual === condition.value;
    case "notEquals":
      return (actual) => actual !== condition.value;
    case "in": {
      const values: readonly unknown[] = condition.value;
      return (actual) => values.includes(actual);
    }
    case "notIn": {
      const values: readonly unknown[] = condition.value;
      return (actual) => !values.includes(actual);
    }
    case "contains": {
      const needle = condition.value;
      return (actual) =>
        typeof actual === "string"
          ? actual.includes(needle)
          : Array.isArray(actual) && (actual as readonly unknown[]).includes(needle);
    }
    case "matches": {
      const pattern = new RegExp(condition.value);
      return (actual) => typeof actual === "string" && pattern.test(actual);
    }
    case "greaterThan": {
      const bound = condition.value;
      return (actual) => typeof actual === "number" && actual > bound;
    }
    case "lessThan": {
      const bound = condition.value;
      return (actual) => typeof actual === "number" && actual < bound;
    }
  }
}

/** The value at a dotted path through objects and arrays (own keys only); undefined when absent. */
export function valueAt(data: unknown, parts: readonly string[]): unknown {
  let current: unknown = data;
  for (const part of parts) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
