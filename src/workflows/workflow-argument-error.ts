import type { z } from "zod";
import { formatJsonPath, type JsonPath } from "../hank/issues.ts";

/** One problem with what a workflow was given: where it is, what is wrong, how to fix it. */
export interface ArgumentIssue {
  /** The argument as the caller wrote it: `steps[1].model`, `maxIterations`. */
  readonly argument: string;
  readonly message: string;
  readonly fix: string;
}

/**
 * The only error a workflow throws: invalid arguments (or an agent file that cannot be used), caught
 * before anything runs. Every issue is listed at once; a model failure is never thrown, it is a result.
 */
export class WorkflowArgumentError extends TypeError {
  readonly code: "invalid-argument" | "invalid-agent-file";
  readonly issues: readonly ArgumentIssue[];
  /** The agent file, for `invalid-agent-file`. */
  readonly file?: string;

  constructor(
    where: string,
    issues: readonly ArgumentIssue[],
    code: "invalid-argument" | "invalid-agent-file" = "invalid-argument",
    file?: string,
  ) {
    const lines = issues.map((issue) => `  ${issue.argument}: ${issue.message} Fix: ${issue.fix}`);
    super(
      `${where}: ${issues.length === 1 ? "invalid argument" : `${issues.length} invalid arguments`}\n${lines.join("\n")}`,
    );
    this.name = "WorkflowArgumentError";
    this.code = code;
    this.issues = issues;
    if (file !== undefined) this.file = file;
  }
}

/** `options.steps[1].model` as the caller reads it, from a zod path under `root`. */
export function argumentName(root: string, path: JsonPath): string {
  if (path.length === 0) return root;
  const rest = formatJsonPath(path);
  return rest.startsWith("[") ? `${root}${rest}` : `${root}.${rest}`;
}

/** The issues of a failed zod parse, each named by its argument, with the schema's own wording. */
export function issuesOf(
  root: string,
  error: z.ZodError,
  fixOf: (path: JsonPath) => string,
): ArgumentIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.filter((part): part is string | number => typeof part !== "symbol");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        argument: argumentName(root, [...path, key]),
        message: "is not a known field.",
        fix: fixOf([...path, key]),
      }));
    }
    return [{ argument: argumentName(root, path), message: sentence(issue.message), fix: fixOf(path) }];
  });
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
