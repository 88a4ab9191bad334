import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Harness, HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { createScriptedHarness } from "./scripted-harness.ts";
import type { ScriptedClock } from "./scripted-options.ts";

/** Shared by the scripted agent's tests: a clock driven by hand, counting ids, temp workspaces. */

export interface FakeClock extends ScriptedClock {
  /** Moves time forward and fires the timers that came due, in order. */
  advance(ms: number): void;
  pendingTimers(): number;
}

export function createFakeClock(): FakeClock {
  let now = 0;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, fn });
      return handle;
    },
    clearTimeout(handle) {
      if (typeof handle === "number") timers.delete(handle);
    },
    advance(ms) {
      now += ms;
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
      for (const [handle, timer] of due) {
        timers.delete(handle);
        timer.fn();
      }
    },
    pendingTimers: () => timers.size,
  };
}

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
