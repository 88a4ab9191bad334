/**
 * Programmatic workflows over hankweave's runtime: `loop()` (steps in a cycle until a criterion is met)
 * and `run()` (one agent, one input), with agents written inline or loaded from Markdown files. Every
 * step is a codon of a generated hank, so a workflow gets any harness, budgets, the journal and, with
 * `durable`, checkpoints and a resume after a crash.
 */
export { type Agent, AgentSchema, type AgentTools } from "./agent.ts";
export { loadAgent, parseAgentMarkdown } from "./load-agent.ts";
export { loop } from "./loop.ts";
export {
  DEFAULT_MAX_ITERATIONS,
  type LoopEndCause,
  type LoopOptions,
  type LoopResult,
  type UntilPredicate,
} from "./loop-options.ts";
export { run } from "./run-step.ts";
export { type ArgumentIssue, WorkflowArgumentError } from "./workflow-argument-error.ts";
export type {
  DurableOptions,
  Lifetime,
  Result,
  StepError,
  StepErrorKind,
  Usage,
  WorkflowBudget,
  WorkflowOptions,
  WorkflowResult,
} from "./workflow-types.ts";
