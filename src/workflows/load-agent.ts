import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { splitFrontmatter } from "../hank/prompt.ts";
import { AGENT_FIELD_FIXES, type Agent, AgentSchema } from "./agent.ts";
import { type ArgumentIssue, issuesOf, WorkflowArgumentError } from "./workflow-argument-error.ts";

/**
 * Front matter an agent file may carry: the agent's own fields, its tool settings spelled as Claude
 * Code's agent files spell them (`tools:` the allowed tools, `disallowedTools:` the denied ones; a
 * YAML list or a comma-separated line), and the labels any prompt file may have. Anything else
 * (`lifetime:`, `permissionMode:`...) is refused by name rather than silently ignored: a reader would
 * believe it applies.
 */
const AGENT_KEYS = [
  "name",
  "model",
  "description",
  "env",
  "idleTimeoutSeconds",
  "tools",
  "disallowedTools",
] as const;
const LABEL_KEYS = ["tags", "version", "author"] as const;

/**
 * Reads an agent from a Markdown file: YAML front matter (`name`, `model`, optional `description`,
 * `env`, `idleTimeoutSeconds`, `tools`, `disallowedTools`) and a body that becomes the agent's instructions. `overrides` win over
 * the file (a workflow that pins another model). Throws `WorkflowArgumentError` naming the file, the
 * field and the fix when the file cannot be used.
 */
export function loadAgent(file: string, overrides: Partial<Agent> = {}): Agent {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fileError(path, [
      { argument: path, message: `cannot be read (${reason}).`, fix: "Check the path." },
    ]);
  }
  return parseAgentMarkdown(text, path, overrides);
}

/** `loadAgent` on text already read; `file` names it in errors. */
export function parseAgentMarkdown(text: string, file: string, overrides: Partial<Agent> = {}): Agent {
  const split = splitFrontmatter(text);
  if (split.kind === "invalid") {
    throw fileError(file, [{ argument: "front matter", message: `${split.reason}.`, fix: FRONT_MATTER_FIX }]);
  }
  if (split.kind === "none") {
    const fix = `Start the file with a front matter block:\n---\nname: coder\nmodel: sonnet\n---\n${FRONT_MATTER_FIX}`;
    throw fileError(file, [{ argument: "front matter", message: "is missing.", fix }]);
  }
  const raw = split.metadata.raw;
  const unknown = Object.keys(raw).filter(
    (key) =>
      !(AGENT_KEYS as readonly string[]).includes(key) && !(LABEL_KEYS as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    throw fileError(
      file,
      unknown.map((key) => ({
        argument: `front matter field ${key}`,
        message: "is not an agent setting hankweave applies.",
        fix: `Remove it; an agent file may set ${AGENT_KEYS.join(", ")} (and the labels ${LABEL_KEYS.join(", ")}).`,
      })),
    );
  }
  const instructions = split.body.trim();
  const candidate = {
    ...pick(raw),
    ...(instructions !== "" && { instructions }),
    ...overrides,
  };
  const parsed = AgentSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = issuesOf(
      "front matter",
      parsed.error,
      (path) => AGENT_FIELD_FIXES[String(path[0])] ?? FRONT_MATTER_FIX,
    );
    throw fileError(
      file,
      issues.map((issue) => ({ ...issue, argument: asWritten(issue.argument) })),
    );
  }
  return parsed.data;
}

const FRONT_MATTER_FIX =
  "Write YAML between two --- lines: name, model, and optionally description, env, idleTimeoutSeconds, tools, disallowedTools.";

/** The agent fields of the front matter, as the schema wants them (YAML's failsafe values are strings). */
function pick(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of AGENT_KEYS) {
    const value = raw[key];
    if (value === undefined || key === "tools" || key === "disallowedTools") continue;
    out[key] = key === "idleTimeoutSeconds" && typeof value === "string" ? Number(value) : value;
  }
  const allow = toolList(raw.tools);
  const deny = toolList(raw.disallowedTools);
  if (allow !== undefined || deny !== undefined) {
    out.tools = { ...(allow !== undefined && { allow }), ...(deny !== undefined && { deny }) };
  }
  return out;
}

/** `Read, Grep` or `[Read, Grep]` as a list of names; anything else is left for the schema to refuse. */
function toolList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value.trim() === "" ? [] : value.split(",").map((name) => name.trim());
}

/** `tools.deny` of the schema is the file's `disallowedTools:`, `tools.allow` its `tools:`. */
function asWritten(argument: string): string {
  return argument
    .replace(/^front matter\.tools\.deny/, "front matter.disallowedTools")
    .replace(/^front matter\.tools\.allow/, "front matter.tools");
}

function fileError(file: string, issues: readonly ArgumentIssue[]): WorkflowArgumentError {
  return new WorkflowArgumentError(`agent file ${file}`, issues, "invalid-agent-file", file);
}
