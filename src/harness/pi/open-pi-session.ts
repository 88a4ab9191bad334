import { join } from "node:path";
import type { AgentSession } from "@mariozechner/pi-coding-agent";
import { type SessionRequest, toolPermitted } from "../harness.ts";
import type { PiHarnessOptions } from "./pi-options.ts";
import type { PiSdk } from "./pi-sdk.ts";
import type { PreparedPiSession } from "./prepare-pi-session.ts";
import { PI_TOOLS } from "./tool-facts.ts";

/**
 * Creates the pi agent session, isolated from the user's pi setup: credentials, models and settings
 * in memory; no extensions, skills, prompt templates, themes or context files (AGENTS.md) are loaded;
 * the agent directory is a private one under the session directory, so `~/.pi` is never read.
 *
 * Settings: pi's retries are off (the runtime owns retry policy: `retry.enabled:false`, and the
 * provider clients' own retries `retry.provider.maxRetries:0`); pi's automatic compaction is off (the
 * harness compacts at an overflow itself, see `runPiSession`).
 *
 * System prompt: pi's default prompt (it describes the tools and how to use them) with the codon's
 * system prompt appended; a SYSTEM.md or APPEND_SYSTEM.md in the workspace is ignored.
 *
 * Tools: read, bash, edit, write, less those the request's tool settings leave out (pi's `tools`
 * allowlist then holds only the permitted ones, so the model is never offered the others). bash runs
 * commands in the agent environment of the request. The tools that can change the workspace (write,
 * edit, bash) are pi's own definitions given as custom tools of the same names, so that each asks
 * `mayWrite` first: pi runs them in this process, which may have lost the execution's lock.
 */
export async function openPiSession(
  sdk: PiSdk,
  request: SessionRequest,
  prepared: PreparedPiSession,
  options: Pick<PiHarnessOptions, "sessionDir" | "mayWrite">,
): Promise<AgentSession> {
  const pi = sdk.agent;
  const { sessionDir } = options;
  const { cwd } = request;
  const agentDir = join(sessionDir, "agent");
  const authStorage = pi.AuthStorage.inMemory();
  if (prepared.apiKey !== undefined) authStorage.setRuntimeApiKey(prepared.model.provider, prepared.apiKey);
  const modelRegistry = pi.ModelRegistry.inMemory(authStorage);
  const settingsManager = pi.SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false, provider: { maxRetries: 0 } },
    enableInstallTelemetry: false,
  });
  const appended = request.systemPrompt?.trim() ? [request.systemPrompt] : [];
  const resourceLoader = new pi.DefaultResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    systemPromptOverride: () => undefined,
    appendSystemPromptOverride: () => appended,
  });
  await resourceLoader.reload();
  const env = { ...request.env };
  const mayWrite = options.mayWrite ?? (() => true);
  // defineTool keeps the definitions assignable to `customTools` (pi's documented way).
  const writing = [
    pi.defineTool(
      fenced(pi.createBashToolDefinition(cwd, { spawnHook: (context) => ({ ...context, env }) }), mayWrite),
    ),
    pi.defineTool(fenced(pi.createWriteToolDefinition(cwd), mayWrite)),
    pi.defineTool(fenced(pi.createEditToolDefinition(cwd), mayWrite)),
  ];
  const tools = PI_TOOLS.filter((name) => toolPermitted(request.tools, name));
  const { session } = await pi.createAgentSession({
    cwd,
    agentDir,
    model: prepared.model,
    thinkingLevel: prepared.thinkingLevel,
    authStorage,
    modelRegistry,
    settingsManager,
    resourceLoader,
    sessionManager: prepared.sessionManager,
    tools,
    customTools: writing.filter((tool) => tools.some((name) => name === tool.name)),
  });
  return session;
}

/** Refuses the tool (an error result for the model, nothing run) once this process may not write. */
function fenced<T extends { execute: (...args: never[]) => Promise<unknown> }>(
  tool: T,
  mayWrite: () => boolean,
): T {
  const execute = tool.execute;
  return {
    ...tool,
    execute: ((...args: Parameters<T["execute"]>) => {
      if (!mayWrite()) throw new Error(LOCK_LOST_REFUSAL);
      return execute.apply(tool, args);
    }) as T["execute"],
  };
}

const LOCK_LOST_REFUSAL =
  "Not run: this process lost the execution's lock (another process runs the execution now).";
