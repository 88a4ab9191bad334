import { basename, dirname, join } from "node:path";
import type { SessionRequest } from "../harness.ts";

/** The execution's state folder, beside agentRoot (workspace/execution-layout.ts). */
const STATE_DIR_NAME = ".hankweave";

export interface ConfigDirInput {
  readonly request: SessionRequest;
  readonly configDir: ((request: SessionRequest) => string) | undefined;
  readonly fallbackConfigDir: string;
  /** Whether a directory exists (injected: the only effect of the decision). */
  readonly isDirectory: (path: string) => boolean;
}

/**
 * The CLAUDE_CONFIG_DIR of a session, in order of precedence:
 * 1. CLAUDE_CONFIG_DIR in the agent's environment: the user chose a directory (for instance their own
 *    `~/.claude`, to use its login), through their shell or `HANKWEAVE_CLAUDE_CONFIG_DIR`;
 * 2. the harness option, from the composition root;
 * 3. `<execution>/.hankweave/claude` when the cwd is an execution's `agentRoot`;
 * 4. the fallback directory.
 * The same answer for every session of an execution is what lets a resume find its transcript.
 */
export function resolveConfigDir(input: ConfigDirInput): string {
  const fromEnv = input.request.env.CLAUDE_CONFIG_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  if (input.configDir !== undefined) return input.configDir(input.request);
  const { cwd } = input.request;
  const stateDir = join(dirname(cwd), STATE_DIR_NAME);
  if (basename(cwd) === "agentRoot" && input.isDirectory(stateDir)) return join(stateDir, "claude");
  return input.fallbackConfigDir;
}
