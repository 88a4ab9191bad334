import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { systemClock } from "../../src/engine/index.ts";
import type { SessionRequest } from "../../src/harness/harness.ts";
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
    for (let i = 0; i < args.sessions; i++) {
      const request: SessionRequest = {
        codonId: `step#${i}`,
        prompt: NOOP_PROMPT,
        model: { requested: "scripted", id: "scripted", provider: "scripted" },
        cwd,
        env,
        autoCompact: false,
        attempt: 1,
        extension: 0,
        signal,
      };
      const session = harness.start(request);
      for await (const _event of session) {
        // drained: the engine reads every event
      }
      const outcome = await session.outcome;
      if (outcome.kind !== "completed") throw new Error(`scripted agent ended ${outcome.kind}`);
    }
    return { sessions: args.sessions, totalMs: performance.now() - start };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
