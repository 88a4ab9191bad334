import { isAbsolute, join, resolve } from "node:path";

export const EXECUTION_BASE_DIR_ENV = "HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR";
export const DEFAULT_EXECUTION_BASE_DIR_NAME = ".hankweave-executions";

export interface BaseDirSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** Relative settings resolve against it. */
  readonly cwd: string;
  /** `executionBaseDir` from `hankweave.json`, which the environment variable overrides. */
  readonly configured?: string;
}

/**
 * Where executions without `-e` live: `HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR`, else the configured
 * `executionBaseDir`, else `~/.hankweave-executions`. An empty value counts as unset; a leading `~/`
 * means the home directory (the variable may come from a file no shell expanded).
 */
export function executionBaseDir(sources: BaseDirSources): string {
  const chosen = nonEmpty(sources.env[EXECUTION_BASE_DIR_ENV]) ?? nonEmpty(sources.configured);
  if (chosen === undefined) return join(sources.homeDir, DEFAULT_EXECUTION_BASE_DIR_NAME);
  if (chosen === "~") return sources.homeDir;
  if (chosen.startsWith("~/")) return join(sources.homeDir, chosen.slice(2));
  return isAbsolute(chosen) ? resolve(chosen) : resolve(sources.cwd, chosen);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
