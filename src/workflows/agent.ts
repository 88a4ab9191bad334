import { z } from "zod";
import { IdleTimeoutSeconds, RetryConfig } from "../hank/schema/index.ts";

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
};

export const AGENT_FIELDS = Object.keys(AgentSchema.shape);
