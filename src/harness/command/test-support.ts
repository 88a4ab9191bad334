import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { procStatFields } from "../../util/proc-stat.ts";
import type { Harness, HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { createHandClock as createFakeClock, type HandClock as FakeClock } from "../test-support.ts";
import type { NamedCommand } from "./command-config.ts";
import { DEFAULT_KILL_GRACE_MS } from "./command-config.ts";
import type { CommandHarnessDeps } from "./run-command-session.ts";

/** Shared by the command harness tests: a hand-driven clock, temp dirs, the fake agent, requests. */

export const FAKE_AGENT = join(import.meta.dirname, "fixtures", "fake-agent.mjs");

export { createFakeClock, type FakeClock };

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-command-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function testDeps(clock: FakeClock, dir: string): CommandHarnessDeps {
  let n = 0;
  return { clock, newId: () => `id-${++n}`, tempDir: dir };
}

/** A command running the fake agent with `node` (no NODE_EXTRA_CA_CERTS: the env is built from scratch). */
export function fakeCommand(name: string, args: string[], fields: Partial<NamedCommand> = {}): NamedCommand {
  return {
    name,
    command: process.execPath,
    args: [FAKE_AGENT, ...args],
    stdin: false,
    output: "claude-stream-json",
    env: {},
    killGraceMs: DEFAULT_KILL_GRACE_MS,
    ...fields,
  };
}

export function makeRequest(cwd: string, overrides: Partial<SessionRequest> = {}): SessionRequest {
  return {
    codonId: "edit",
    prompt: "write the file",
    model: { requested: "command/fake", id: "command/fake", provider: "command" },
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
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
): Promise<{ events: HarnessEvent[]; outcome: SessionOutcome }> {
  const session = harness.start(request);
  const events: HarnessEvent[] = [];
  for await (const event of session) events.push(event);
  return { events, outcome: await session.outcome };
}

/** Whether a process exists and is not a zombie (a zombie has exited; it only awaits reaping). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const fields = procStatFields(pid);
  return fields !== undefined && fields[0] !== "Z";
}

export function readPids(dir: string): { agent: number; grandchild: number } {
  return JSON.parse(readFileSync(join(dir, "pids.json"), "utf8")) as { agent: number; grandchild: number };
}

/** Yields to the event loop (no timers) until `condition` holds; throws after many turns. */
export async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("condition never held");
}
