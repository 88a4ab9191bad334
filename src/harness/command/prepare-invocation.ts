import { join } from "node:path";
import type { SessionRequest } from "../harness.ts";
import type { NamedCommand } from "./command-config.ts";
import { expandArgs, type PlaceholderValues, placeholdersIn } from "./expand-args.ts";

/** What to spawn for one session. */
export interface Invocation {
  readonly file: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly stdin?: string;
  /** The prompt file to write before spawning (and remove after), when `{promptFile}` is used. */
  readonly promptFile?: { readonly path: string; readonly text: string };
  /** The session id known before the agent speaks: the resumed one, or a fresh one for `{sessionId}`. */
  readonly knownSessionId?: string;
}

export type InvocationResult =
  | { readonly ok: true; readonly invocation: Invocation }
  | { readonly ok: false; readonly message: string };

export interface InvocationContext {
  readonly command: NamedCommand;
  /** The value of `{model}`, if any. */
  readonly model: string | undefined;
  readonly newId: () => string;
  readonly tempDir: string;
}

/**
 * The prompt as the agent receives it. A system prompt the arguments do not place with
 * `{systemPrompt}` is put before the prompt, so it is never silently dropped.
 */
function promptText(request: SessionRequest, templates: readonly string[]): string {
  const system = request.systemPrompt;
  if (system === undefined || system === "" || placeholdersIn(templates).includes("systemPrompt"))
    return request.prompt;
  return `${system}\n\n${request.prompt}`;
}

/** Builds the command line, environment and stdin of one session, or says why it cannot run. Pure apart from `newId`. */
export function prepareInvocation(request: SessionRequest, context: InvocationContext): InvocationResult {
  const { command } = context;
  const resuming = request.resumeSessionId !== undefined;
  const templates = resuming ? command.resumeArgs : command.args;
  if (templates === undefined) {
    return {
      ok: false,
      message: `Command model "${command.name}" cannot resume a session: it has no "resumeArgs"`,
    };
  }
  const used = placeholdersIn(templates);
  const knownSessionId =
    request.resumeSessionId ?? (used.includes("sessionId") ? context.newId() : undefined);
  const prompt = promptText(request, templates);
  const promptPath = used.includes("promptFile")
    ? join(context.tempDir, `hankweave-prompt-${context.newId()}.md`)
    : undefined;
  const values: PlaceholderValues = {
    prompt,
    cwd: request.cwd,
    systemPrompt: request.systemPrompt ?? "",
    ...(context.model !== undefined && { model: context.model }),
    ...(knownSessionId !== undefined && { sessionId: knownSessionId }),
    ...(promptPath !== undefined && { promptFile: promptPath }),
  };
  const expanded = expandArgs(templates, values);
  if (!expanded.ok) {
    const names = expanded.missing.map((name) => `{${name}}`).join(", ");
    return {
      ok: false,
      message: `Command model "${command.name}" needs a value for ${names}: name the model in the id (command/${command.name}/<model>) or set "model" in its configuration`,
    };
  }
  const invocation: Invocation = {
    file: command.command,
    args: expanded.args,
    env: { ...request.env, ...command.env },
    ...(command.stdin && { stdin: prompt }),
    ...(promptPath !== undefined && { promptFile: { path: promptPath, text: prompt } }),
    ...(knownSessionId !== undefined && { knownSessionId }),
  };
  return { ok: true, invocation };
}
