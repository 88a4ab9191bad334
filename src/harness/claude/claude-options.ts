import type { SessionRequest } from "../harness.ts";
import type { SdkLoad } from "./load-sdk.ts";

/**
 * What the composition root may set on the Claude harness. Every field has a default taken from the
 * process at creation time (`createClaudeHarness`), so tests and embedders can pin each one.
 */
export interface ClaudeHarnessOptions {
  /**
   * Claude Code's configuration directory for a session (CLAUDE_CONFIG_DIR: transcripts, settings,
   * debug logs). Resume finds a session's transcript here, so it must be the same for every session of
   * one execution. Default: `<execution>/.hankweave/claude` when the cwd is an execution's agentRoot,
   * else `fallbackConfigDir`. A CLAUDE_CONFIG_DIR in the agent's environment wins over both.
   */
  readonly configDir?: (request: SessionRequest) => string;
  /** The config directory when the cwd is not inside an execution. Default `<os tmpdir>/hankweave-claude`. */
  readonly fallbackConfigDir?: string;
  /**
   * Claude Code's own retries of a failed API request (CLAUDE_CODE_MAX_RETRIES). Default 2: a blip
   * is absorbed inside the session, anything longer fails the attempt and the runtime's retry policy
   * decides (Claude Code's default of 10 retries hangs a dead endpoint for minutes).
   */
  readonly maxRetries?: number;
  /** Whether this process runs as root (adds IS_SANDBOX=1). Default `process.getuid() === 0`. */
  readonly runningAsRoot?: boolean;
  /** Milliseconds clock for tool execution times. Default `Date.now`. */
  readonly now?: () => number;
  /** Loads the SDK on the first session. Default: a dynamic import of the installed package. */
  readonly loadSdk?: () => Promise<SdkLoad>;
  /** A Claude Code executable to run instead of the SDK's bundled one (`pathToClaudeCodeExecutable`). */
  readonly executablePath?: string;
}

/** The options with every default applied. */
export interface ResolvedClaudeOptions {
  readonly configDir: ((request: SessionRequest) => string) | undefined;
  readonly fallbackConfigDir: string;
  readonly maxRetries: number;
  readonly runningAsRoot: boolean;
  readonly now: () => number;
  readonly loadSdk: () => Promise<SdkLoad>;
  readonly executablePath: string | undefined;
}

export const DEFAULT_MAX_RETRIES = 2;
