import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import type { PiEndpointModel, PiHarnessOptions } from "./pi-options.ts";

/** Shared by the pi harness tests: temp workspaces, a fake-provider model, requests, collection. */

export const FAKE_PRICING = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

export const FAKE_MODEL: PiEndpointModel = {
  id: "fake-model",
  contextWindow: 128_000,
  maxTokens: 4096,
  cost: FAKE_PRICING,
};

export interface PiWorkspace {
  readonly root: string;
  readonly cwd: string;
  readonly sessionDir: string;
  remove(): void;
}

export function piWorkspace(): PiWorkspace {
  const root = mkdtempSync(join(tmpdir(), "hankweave-pi-"));
  mkdirSync(join(root, "agentRoot"));
  return {
    root,
    cwd: join(root, "agentRoot"),
    sessionDir: join(root, "pi-sessions"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Harness options for the `fake` provider served at `baseUrl` (a fake OpenAI server). */
export function fakeOptions(
  workspace: PiWorkspace,
  baseUrl: string,
  now: () => number = () => 0,
): PiHarnessOptions {
  return {
    sessionDir: workspace.sessionDir,
    providers: { fake: { baseUrl: `${baseUrl}/v1`, api: "openai-completions", models: [FAKE_MODEL] } },
    clock: { now },
    resolveModel: () => undefined,
  };
}

export function fakeRequest(
  workspace: PiWorkspace,
  prompt: string,
  overrides: Partial<SessionRequest> = {},
): SessionRequest {
  return {
    codonId: "edit",
    prompt,
    model: {
      requested: "pi/fake/fake-model",
      id: "fake-model",
      provider: "fake",
      contextWindow: 128_000,
      maxOutputTokens: 4096,
    },
    cwd: workspace.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace.root },
    autoCompact: false,
    attempt: 1,
    extension: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function collect(
  session: AsyncIterable<HarnessEvent> & { outcome: Promise<SessionOutcome> },
): Promise<{ events: HarnessEvent[]; outcome: SessionOutcome }> {
  const events: HarnessEvent[] = [];
  for await (const event of session) events.push(event);
  return { events, outcome: await session.outcome };
}

/** Event types in order, with the interesting field of each, for compact assertions. */
export function eventSummary(events: readonly HarnessEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "assistant.text":
      case "assistant.thinking":
        return `${event.type}:${event.text}`;
      case "tool.use":
        return `tool.use:${event.toolName}:${event.effects ?? "unknown"}`;
      case "tool.result":
        return `tool.result:${event.toolName}:${event.isError ? "error" : "ok"}`;
      case "file.changed":
        return `file.changed:${event.action}:${event.path}`;
      case "turn.ended":
        return `turn.ended:${event.reason}`;
      default:
        return event.type;
    }
  });
}

const NO_USAGE = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** A pi assistant message as pi reports it at `message_end`. */
export function assistantMessage(
  stopReason: AssistantMessage["stopReason"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: "fake",
    model: "fake-model",
    usage: NO_USAGE,
    stopReason,
    timestamp: 0,
    ...extra,
  };
}
