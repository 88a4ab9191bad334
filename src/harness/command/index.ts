/** The command harness: any CLI agent as a codon (docs/command-harness.md). */
export {
  type CommandConfig,
  type CommandConfigResult,
  CommandConfigSchema,
  type CommandSpec,
  DEFAULT_KILL_GRACE_MS,
  type NamedCommand,
  OUTPUT_FORMATS,
  type OutputFormat,
  parseCommandConfig,
} from "./command-config.ts";
export { createCommandHarness, createCommandHarnesses } from "./command-harness.ts";
export {
  COMMAND_MODEL_PREFIX,
  type CommandModelId,
  type CommandModelResolution,
  commandModelIdOf,
  parseCommandModelId,
  resolveCommandModel,
} from "./command-model-id.ts";
export { PLACEHOLDERS, type Placeholder } from "./expand-args.ts";
export type { CommandHarnessDeps } from "./run-command-session.ts";
