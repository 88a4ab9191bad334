import { z } from "zod";
import { error, type JsonPath, type ValidationIssue } from "../../hank/issues.ts";
import { placeholderProblems } from "./expand-args.ts";

/**
 * The configuration of command models (docs/command-harness.md): named CLI agents, each run as one
 * process per session. Model ids `command/<name>` and `command/<name>/<model>` refer to them.
 */

/** How the agent's stdout is read. */
export const OUTPUT_FORMATS = ["text", "claude-stream-json", "pi-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Between SIGTERM and SIGKILL when a session is aborted (the reference's kill grace). */
export const DEFAULT_KILL_GRACE_MS = 5_000;

const COMMAND_NAME = /^[a-z0-9][a-z0-9._-]*$/;

const CommandSpecSchema = z.strictObject({
  description: z.string().optional(),
  /** The executable: a name looked up on the session's PATH, or a path. */
  command: z.string().min(1),
  /** Arguments of a new session, with placeholders. */
  args: z.array(z.string()).default([]),
  /** Arguments of a resumed session; without them the command cannot resume. */
  resumeArgs: z.array(z.string()).optional(),
  /** Write the prompt to the agent's stdin (then close it). */
  stdin: z.boolean().default(false),
  output: z.enum(OUTPUT_FORMATS).default("text"),
  /** The value of `{model}` when the model id names none. */
  model: z.string().min(1).optional(),
  /** Added to the session's environment (over it). */
  env: z.record(z.string(), z.string()).default({}),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  killGraceMs: z.number().int().min(0).max(600_000).default(DEFAULT_KILL_GRACE_MS),
});

export const CommandConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  commands: z.record(
    z.string().regex(COMMAND_NAME, "a command name is lowercase letters, digits, '.', '_' or '-'"),
    CommandSpecSchema,
  ),
});

export type CommandSpec = z.output<typeof CommandSpecSchema>;
export type CommandConfig = z.output<typeof CommandConfigSchema>;

/** One command with its name, as a harness runs it. */
export type NamedCommand = CommandSpec & { readonly name: string };

export type CommandConfigResult =
  | { readonly ok: true; readonly config: CommandConfig }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

const HINT = "See docs/command-harness.md for the shape of a command entry.";

function zodIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => {
    const path: JsonPath = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
    return error("command-config", path, issue.message, HINT);
  });
}

/** Checks what the schema cannot: placeholders, and that the prompt reaches the agent. */
function commandIssues(name: string, spec: CommandSpec): ValidationIssue[] {
  const at = (field: string): JsonPath => ["commands", name, field];
  const issues: ValidationIssue[] = [];
  for (const field of ["args", "resumeArgs"] as const) {
    const args = spec[field];
    if (args === undefined) continue;
    for (const problem of placeholderProblems(args, field)) {
      issues.push(error("command-placeholder", at(field), problem.message, problem.hint));
    }
    const promptArg = args.some((arg) => arg.includes("{prompt}") || arg.includes("{promptFile}"));
    if (!promptArg && !spec.stdin) {
      issues.push(
        error(
          "command-no-prompt",
          at(field),
          `Command "${name}" never passes the prompt to the agent`,
          'Put "{prompt}" or "{promptFile}" in the arguments, or set "stdin": true.',
        ),
      );
    }
  }
  return issues;
}

/** Parses a command configuration (`hankweave.commands.json`, or a `commands` section). Pure; never throws. */
export function parseCommandConfig(raw: unknown): CommandConfigResult {
  const parsed = CommandConfigSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error.issues) };
  const issues = Object.entries(parsed.data.commands).flatMap(([name, spec]) => commandIssues(name, spec));
  return issues.length === 0 ? { ok: true, config: parsed.data } : { ok: false, issues };
}
