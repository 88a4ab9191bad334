import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import { CODON_FIELDS, ROOT_FIELDS } from "../schema/index.ts";
import { closestMatch, lookupTypo, ROOT_ALTERNATIVES, ROOT_TYPOS, suggestField } from "./typo-map.ts";

/** What kind of object an unknown key was found in; it decides the typo map and the hint. */
export type FieldOwner = "codon" | "loop" | "other";

/** How to fix a key once we know what it should have been. */
function renameHint(key: string, target: string): string {
  if (target.startsWith("budget.")) {
    const field = target.slice("budget.".length);
    return `Move it into the codon's budget: "budget": { "${field}": ... }.`;
  }
  if (target.includes(" or ")) {
    const [first = target, second = target] = target.split(" or ");
    return `Use "${first}" or "${second}" instead of "${key}".`;
  }
  return `Rename "${key}" to "${target}".`;
}

/**
 * An unknown key in a strict object. With a likely intended name:
 * `Unknown field "X". Did you mean "Y"?`; without: `Unrecognized field "X". Valid fields are: ...`.
 */
export function unknownFieldIssue(
  path: JsonPath,
  key: string,
  validFields: readonly string[],
  owner: FieldOwner,
  typos: Readonly<Record<string, string>> | undefined,
): ValidationIssue {
  const fieldPath = [...path, key];
  const target = suggestField(key, validFields, typos);
  if (target !== undefined) {
    return error(
      "unknown-field",
      fieldPath,
      `Unknown field "${key}". Did you mean "${target}"?`,
      renameHint(key, target),
    );
  }
  const message = `Unrecognized field "${key}". Valid fields are: ${validFields.join(", ")}.`;
  if (owner === "loop" && CODON_FIELDS.includes(key)) {
    return error(
      "unknown-field",
      fieldPath,
      message,
      `"${key}" is a codon field; set it on each codon in the loop's "codons" array.`,
    );
  }
  return error(
    "unknown-field",
    fieldPath,
    message,
    `Remove "${key}" or rename it to one of the valid fields.`,
  );
}

const PREFIX = "Unrecognized field(s) at hank root:";

function rootMoveHint(key: string, target: string): string {
  const dot = target.indexOf(".");
  if (dot < 0 || target.includes(" or ")) return renameHint(key, target);
  const parent = target.slice(0, dot);
  const field = target.slice(dot + 1);
  return `Move it into "${parent}": "${parent}": { "${field}": ... }.`;
}

/** An unknown key at the hank root, with the per-codon variant for codon fields. */
export function unknownRootFieldIssue(key: string): ValidationIssue {
  const path = [key];
  if (CODON_FIELDS.includes(key)) {
    const alternative = lookupTypo(ROOT_ALTERNATIVES, key);
    return error(
      "unknown-root-field",
      path,
      `${PREFIX} ${key}. "${key}" is a per-codon field — move it inside a codon in the "hank" array.`,
      `Move "${key}" into each codon that needs it${alternative === undefined ? "" : `; ${alternative}`}.`,
    );
  }
  const target = lookupTypo(ROOT_TYPOS, key) ?? closestMatch(key, ROOT_FIELDS);
  if (target !== undefined) {
    return error(
      "unknown-root-field",
      path,
      `${PREFIX} ${key}. Did you mean "${target}"?`,
      rootMoveHint(key, target),
    );
  }
  return error(
    "unknown-root-field",
    path,
    `${PREFIX} ${key}. Valid root fields are: ${ROOT_FIELDS.join(", ")}.`,
    `Remove "${key}" or move it where it belongs.`,
  );
}
