import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ValidationIssue } from "../issues.ts";
import { validateHank } from "./validate-hank.ts";
import type { ValidationContext, ValidationReport } from "./validation-types.ts";

/** Builders and finders shared by the validator's tests. Not part of the public API. */

export const RICH_FIXTURE_DIR = fileURLToPath(
  new URL("../../../test/fixtures/validator-rich", import.meta.url),
);

export type Json = Record<string, unknown>;

/** A minimal valid codon; fields override or add. */
export function codon(id: string, fields: Json = {}): Json {
  return {
    id,
    name: `Codon ${id}`,
    model: "haiku",
    continuationMode: "fresh",
    promptText: "Do it.",
    ...fields,
  };
}

/** A loop with onFailure-safe defaults left to the caller. */
export function loop(id: string, codons: unknown[], fields: Json = {}): Json {
  return {
    type: "loop",
    id,
    name: `Loop ${id}`,
    terminateOn: { type: "iterationLimit", limit: 2 },
    codons,
    ...fields,
  };
}

/** A loop codon that draws no loop warnings (onFailure set). */
export function loopCodon(id: string, fields: Json = {}): Json {
  return codon(id, { onFailure: "ignore", ...fields });
}

export function hankOf(items: unknown[], root: Json = {}): Json {
  return { ...root, hank: items };
}

export function run(raw: unknown, context: Partial<ValidationContext> = {}): ValidationReport {
  return validateHank(raw, {
    hankPath: `${RICH_FIXTURE_DIR}/hank.json`,
    hankDir: RICH_FIXTURE_DIR,
    env: {},
    findTool: () => true,
    ...context,
  });
}

export function withCode(report: ValidationReport, code: string): ValidationIssue[] {
  return report.issues.filter((issue) => issue.code === code);
}

/** The one issue with this code; fails the test when there are none or several. */
export function only(report: ValidationReport, code: string): ValidationIssue {
  const found = withCode(report, code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(report.issues, null, 1)}`);
  const [issue] = found;
  assert.ok(issue);
  return issue;
}

/** Code, path and message of an issue, for exact comparisons. */
export function brief(issue: ValidationIssue): {
  severity: string;
  code: string;
  path: unknown[];
  message: string;
} {
  return { severity: issue.severity, code: issue.code, path: [...issue.path], message: issue.message };
}
