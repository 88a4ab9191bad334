import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Harness, HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";

/** Shared by the Claude harness's tests: temp executions, requests against a fake provider, runs. */

export interface TempExecution {
  /** The execution directory; its `.hankweave/` holds the Claude config directory. */
  readonly dir: string;
  /** `<dir>/agentRoot`, the agent's cwd. */
  readonly agentRoot: string;
  remove(): void;
}

export function tempExecution(): TempExecution {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-claude-"));
  const agentRoot = join(dir, "agentRoot");
  mkdirSync(agentRoot);
  mkdirSync(join(dir, ".hankweave"));
  return { dir, agentRoot, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment of an offline session: the fake's URL, any key, and what a Node child needs. */
export function fakeEnv(
  baseUrl: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "test-key",
    ...extra,
  };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export function claudeRequest(
  cwd: string,
  env: Readonly<Record<string, string>>,
  prompt: string,
  overrides: Partial<SessionRequest> = {},
): SessionRequest {
  return {
    codonId: "edit",
    prompt,
    model: {
      requested: "sonnet",
      id: "claude-sonnet-4-5",
      provider: "anthropic",
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
    },
    cwd,
    env,
    autoCompact: false,
    attempt: 1,
    extension: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function runToEnd(
  harness: Harness,
  request: SessionRequest,
  onEvent: (event: HarnessEvent) => void = () => undefined,
): Promise<{ events: HarnessEvent[]; outcome: SessionOutcome }> {
  const session = harness.start(request);
  const events: HarnessEvent[] = [];
  for await (const event of session) {
    events.push(event);
    onEvent(event);
  }
  return { events, outcome: await session.outcome };
}

/** The events without the noisy fields (ids, timings), for exact comparisons. */
export function eventShapes(events: readonly HarnessEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "tool.use":
        return `tool.use ${event.toolName}`;
      case "tool.result":
        return `tool.result ${event.toolName}${event.isError ? " error" : ""}`;
      case "file.changed":
        return `file.changed ${event.action} ${event.path}`;
      case "assistant.text":
        return `text ${event.text}`;
      case "turn.ended":
        return `turn.ended ${event.reason}`;
      default:
        return event.type;
    }
  });
}
