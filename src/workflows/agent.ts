import { z } from "zod";
import { IdleTimeoutSeconds, RetryConfig } from "../hank/schema/index.ts";

const ToolNames = z
  .array(z.string().trim().min(1, "a tool name cannot be empty"))
  .refine((names) => new Set(names).size === names.length, "names a tool twice");

/**
 * Which tools the agent may use, by the names its harness gives them: Claude Code `Read`, `Edit`,
 * `Bash`, `mcp__<server>__<tool>`...; pi `read`, `bash`, `edit`, `write`; the scripted agent `Write`,
 * `Edit`, `Delete`, `Bash`. `allow` is the complete set the agent gets (`[]`: none); `deny` removes
 * tools from the harness's own set. A harness that cannot restrict tools (a command-line agent) makes
 * the workflow refuse the agent before anything runs.
 */
export const AgentToolsSchema = z
  .strictObject({ allow: ToolNames.optional(), deny: ToolNames.optional() })
  .refine((tools) => tools.allow !== undefined || tools.deny !== undefined, "needs allow, deny or both")
  .refine(
    (tools) => !(tools.deny ?? []).some((name) => tools.allow?.includes(name) === true),
    "allows and denies the same tool",
  );

export type AgentTools = z.input<typeof AgentToolsSchema>;

/**
 * An agent: who does a step. Inert data (a name, a model, instructions); a workflow turns each step
 * into a codon of a generated hank, so an agent runs on any harness the model resolver knows:
 * `scripted`, `sonnet`, `pi/<provider>/<model>`, `command/<name>`...
 */
export const AgentSchema = z.strictObject({
  /** How results and the journal name it; unique within a loop's steps under lifetime `"workflow"`. */
  name: z.string().trim().min(1, "an agent needs a name"),
  /** Any model id the resolver takes. `WorkflowOptions.model` replaces it for a whole workflow. */
  model: z.string().trim().min(1, "an agent needs a model id"),
  /** The agent's system prompt (appended to the harness's own). */
  instructions: z.string().optional(),
  /** One line saying what the agent is for (labels only). */
  description: z.string().optional(),
  /** Variables added to the agent's environment. */
  env: z.record(z.string(), z.string()).optional(),
  /**
   * Retry a retriable failure (rate limit, overload, server error) in place, up to `maxAttempts`
   * attempts; without it a failure ends the workflow.
   */
  retry: RetryConfig.partial().optional(),
  /** Seconds without any agent event before the step is stopped (default: the harness's). */
  idleTimeoutSeconds: IdleTimeoutSeconds.optional(),
  /** The tools the agent may use (default: its harness's own set). */
  tools: AgentToolsSchema.optional(),
});

export type Agent = z.input<typeof AgentSchema>;

/** What a fix looks like for each agent field, for argument errors. */
export const AGENT_FIELD_FIXES: Readonly<Record<string, string>> = {
  name: 'Give the agent a non-empty name, e.g. "coder".',
  model:
    'Give a model id the resolver knows: "scripted", "sonnet", "pi/<provider>/<model>", "command/<name>".',
  instructions: "Pass the system prompt as a string.",
  description: "Pass a one-line string.",
  env: "Pass an object of string values.",
  retry: "Pass { maxAttempts: 1-10, delayMs?, maxDelayMs? }.",
  idleTimeoutSeconds: "Pass a whole number of seconds from 1 to 1800.",
  tools:
    'Pass { allow?: [...], deny?: [...] } with distinct tool names of the agent\'s harness, each in one list (Claude: "Read", "Edit", "Bash"...; pi: "read", "bash", "edit", "write"; scripted: "Write", "Edit", "Delete", "Bash").',
};

export const AGENT_FIELDS = Object.keys(AgentSchema.shape);
