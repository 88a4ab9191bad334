import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { systemClock } from "../../src/engine/index.ts";
import type { Harness, SessionRequest } from "../../src/harness/harness.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import { NOOP_PROMPT } from "./hank-fixture.ts";

export interface AgentFloorArgs {
  readonly sessions: number;
}

export interface AgentFloorResult {
  readonly sessions: number;
  readonly totalMs: number;
}

/**
 * The floor under a codon: a bare loop that starts the scripted agent on the no-op prompt, drains its
 * events and awaits its outcome, with no engine, journal or checkpoint around it.
 */
export async function agentFloor(args: AgentFloorArgs): Promise<AgentFloorResult> {
  const cwd = mkdtempSync(join(tmpdir(), "hankweave-bench-floor-"));
  try {
    const clock = systemClock();
    const harness = createScriptedHarness({ clock, newId: randomUUID });
    const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
    const signal = new AbortController().signal;
    const start = performance.now();
    for (let i = 0; i < args.sessions; i++) await runNoopSession(harness, i, { cwd, env, signal });
    return { sessions: args.sessions, totalMs: performance.now() - start };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Where a no-op session runs: its working directory, environment and cancel signal. */
export interface NoopSessionPlace {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly signal: AbortSignal;
}

/**
 * One scripted session on the no-op prompt, as `step#<i>`: started, its events drained (the engine
 * reads every event), its outcome awaited; throws unless it completed.
 */
export async function runNoopSession(harness: Harness, i: number, place: NoopSessionPlace): Promise<void> {
  const request: SessionRequest = {
    codonId: `step#${i}`,
    prompt: NOOP_PROMPT,
    model: { requested: "scripted", id: "scripted", provider: "scripted" },
    ...place,
    autoCompact: false,
    attempt: 1,
    extension: 0,
  };
  const session = harness.start(request);
  for await (const _event of session) {
    // drained
  }
  const outcome = await session.outcome;
  if (outcome.kind !== "completed") throw new Error(`scripted agent ended ${outcome.kind}`);
}
