import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Harness, HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { createHandClock as createFakeClock, type HandClock as FakeClock } from "../test-support.ts";
import { createScriptedHarness } from "./scripted-harness.ts";

/** Shared by the scripted agent's tests: a clock driven by hand, counting ids, temp workspaces. */

export { createFakeClock, type FakeClock };

export function createTestHarness(clock: FakeClock = createFakeClock()): {
  harness: Harness;
  clock: FakeClock;
} {
  let next = 0;
  const harness = createScriptedHarness({ clock, newId: () => `id-${++next}` });
  return { harness, clock };
}

export function tempWorkspace(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-scripted-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function makeRequest(
  cwd: string,
  prompt: string,
  overrides: Partial<SessionRequest> = {},
): SessionRequest {
  return {
    codonId: "edit",
    prompt,
    model: {
      requested: "scripted",
      id: "scripted",
      provider: "scripted",
      contextWindow: 1000,
      maxOutputTokens: 8192,
    },
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

/** Yields to the event loop until `condition` holds (no timers involved); fails after many turns. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("condition never held");
}
