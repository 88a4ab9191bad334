/** What decides the environment of one Claude Code process. */
export interface ClaudeEnvInput {
  /** The agent's complete environment (the session request's `env`). */
  readonly base: Readonly<Record<string, string>>;
  readonly configDir: string;
  readonly maxRetries: number;
  readonly runningAsRoot: boolean;
  readonly autoCompact: boolean;
}

/**
 * The environment of one Claude Code process: the agent's environment plus the variables that make
 * Claude Code behave as a runtime needs (docs/harnesses.md, "Claude"). Pure; the SDK passes it as the
 * child's whole environment, so nothing is inherited besides what `base` holds.
 *
 * - CLAUDE_CONFIG_DIR: transcripts and settings live with the execution, never in `~/.claude`.
 * - CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: no connectivity probe, title request or telemetry.
 * - CLAUDE_CODE_MAX_RETRIES: few in-session retries; the runtime's retry policy does the rest.
 * - IS_SANDBOX=1 as root: Claude Code refuses to bypass permissions as root without it.
 * - DISABLE_AUTO_COMPACT=1 unless `autoCompact`: the provider's context overflow must surface; with
 *   `autoCompact` the variables that would switch compaction off are removed instead.
 */
export function claudeEnv(input: ClaudeEnvInput): Record<string, string> {
  const env: Record<string, string> = { ...input.base };
  env.CLAUDE_CONFIG_DIR = input.configDir;
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1";
  env.CLAUDE_CODE_MAX_RETRIES = String(input.maxRetries);
  env.CLAUDE_AGENT_SDK_CLIENT_APP = "hankweave";
  if (input.runningAsRoot) env.IS_SANDBOX = "1";
  if (input.autoCompact) {
    delete env.DISABLE_AUTO_COMPACT;
    delete env.DISABLE_COMPACT;
  } else {
    env.DISABLE_AUTO_COMPACT = "1";
  }
  return env;
}
