/**
 * A validation finding. Validation collects every issue and never stops at the first; each one names
 * where it is (file and JSON path), what is wrong, and how to fix it.
 */
export type IssueSeverity = "error" | "warning";

export type JsonPath = ReadonlyArray<string | number>;

export interface ValidationIssue {
  readonly severity: IssueSeverity;
  /** Stable machine-readable code, e.g. `unknown-field`, `model-mismatch`, `budget-W3`. */
  readonly code: string;
  /** JSON path inside the hank file (`["hank", 1, "codons", 0, "model"]`); empty for the root. */
  readonly path: JsonPath;
  /** One sentence saying what is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
  /** The file the issue is in, when it is not the hank file itself (a prompt file, a sentinel file). */
  readonly file?: string;
}

/** Renders a JSON path the way users write it: `hank[1].codons[0].model`. */
export function formatJsonPath(path: JsonPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === "" ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === "" ? "(root)" : out;
}

export function error(code: string, path: JsonPath, message: string, hint: string): ValidationIssue {
  return { severity: "error", code, path, message, hint };
}

export function warning(code: string, path: JsonPath, message: string, hint: string): ValidationIssue {
  return { severity: "warning", code, path, message, hint };
}
