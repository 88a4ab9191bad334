import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ClaudeAvailability, checkClaudeAvailable } from "./load-sdk.ts";

export type ClaudeSelfTest =
  | { readonly ok: true; readonly credentials: string }
  | { readonly ok: false; readonly message: string; readonly hint: string };

export interface ClaudeSelfTestDeps {
  readonly checkAvailable?: () => ClaudeAvailability;
  readonly fileExists?: (path: string) => boolean;
}

/** Variables that carry credentials Claude Code reads from its environment, in the order reported. */
const CREDENTIAL_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
] as const;
/** Cloud providers whose credentials Claude Code takes from their own SDKs' configuration. */
const CLOUD_SWITCHES = [
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_USE_FOUNDRY",
] as const;

const NO_CREDENTIALS_HINT =
  "Set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`). hankweave gives Claude Code its own config directory, so the login of your own Claude Code is not used unless you set HANKWEAVE_CLAUDE_CONFIG_DIR to its directory (usually ~/.claude).";

const truthy = (value: string | undefined): boolean => value === "1" || value?.toLowerCase() === "true";

/** Where the credentials for Claude Code come from in `env`, or undefined when nothing provides them. */
export function claudeCredentialSource(
  env: Readonly<Record<string, string | undefined>>,
  fileExists: (path: string) => boolean = existsSync,
): string | undefined {
  const variable = CREDENTIAL_VARIABLES.find((name) => (env[name] ?? "") !== "");
  if (variable !== undefined) return variable;
  const cloud = CLOUD_SWITCHES.find((name) => truthy(env[name]));
  if (cloud !== undefined) return cloud;
  const configDir = env.CLAUDE_CONFIG_DIR ?? "";
  if (configDir !== "") {
    return fileExists(join(configDir, ".credentials.json"))
      ? `the login in ${configDir}`
      : `the configuration in ${configDir}`;
  }
  return undefined;
}

/**
 * The start-up self-test for a run with Claude models (reference 1.17): the SDK and its Claude Code
 * binary are installed, and the agent's environment (after the HANKWEAVE_ pass-through) provides
 * credentials. It imports nothing and makes no API request.
 */
export function selfTestClaude(
  env: Readonly<Record<string, string | undefined>>,
  deps: ClaudeSelfTestDeps = {},
): ClaudeSelfTest {
  const available = (deps.checkAvailable ?? checkClaudeAvailable)();
  if (!available.available) {
    return {
      ok: false,
      message: available.message,
      hint: `${available.hint}. Or run with -m scripted for a dry run.`,
    };
  }
  const credentials = claudeCredentialSource(env, deps.fileExists);
  if (credentials === undefined) {
    return { ok: false, message: "No credentials for Claude models were found.", hint: NO_CREDENTIALS_HINT };
  }
  return { ok: true, credentials };
}
