import { closest } from "fastest-levenshtein";

/**
 * Argument templates: `{name}` placeholders inside argument strings, replaced per session. An
 * argument is never split or joined, so a prompt with spaces or quotes stays one argument.
 */
export const PLACEHOLDERS = ["prompt", "promptFile", "model", "sessionId", "systemPrompt", "cwd"] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

const isPlaceholder = (name: string): name is Placeholder =>
  (PLACEHOLDERS as readonly string[]).includes(name);

/** The placeholder names used in some arguments, in order of first use. */
export function placeholdersIn(args: readonly string[]): string[] {
  const names = args.flatMap((arg) => [...arg.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ""));
  return [...new Set(names)];
}

export interface PlaceholderProblem {
  readonly message: string;
  readonly hint: string;
}

/** Unknown placeholders, and resume arguments that cannot name the session. */
export function placeholderProblems(
  args: readonly string[],
  field: "args" | "resumeArgs",
): PlaceholderProblem[] {
  const used = placeholdersIn(args);
  const problems: PlaceholderProblem[] = used
    .filter((name) => !isPlaceholder(name))
    .map((name) => ({
      message: `Unknown placeholder {${name}} in ${field}`,
      hint: `Did you mean {${closest(name, [...PLACEHOLDERS])}}? Placeholders: ${PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}.`,
    }));
  if (field === "resumeArgs" && !used.includes("sessionId")) {
    problems.push({
      message: "resumeArgs never pass {sessionId}, so a resumed session cannot be named",
      hint: 'Add the session argument of the agent, e.g. "--resume", "{sessionId}".',
    });
  }
  return problems;
}

export type PlaceholderValues = Partial<Record<Placeholder, string>>;

export type ExpandResult =
  | { readonly ok: true; readonly args: string[] }
  | { readonly ok: false; readonly missing: Placeholder[] };

/** Replaces every placeholder; names without a value are reported, unknown names are left as written. */
export function expandArgs(args: readonly string[], values: PlaceholderValues): ExpandResult {
  const missing = new Set<Placeholder>();
  const expanded = args.map((arg) =>
    arg.replace(PLACEHOLDER, (text, name: string) => {
      if (!isPlaceholder(name)) return text;
      const value = values[name];
      if (value === undefined) missing.add(name);
      return value ?? "";
    }),
  );
  return missing.size === 0 ? { ok: true, args: expanded } : { ok: false, missing: [...missing] };
}
