import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { resolveModel } from "../../hank/models/index.ts";
import { createHarnessRegistry, harnessFactories } from "../../harness/index.ts";
import { sessionModelOf } from "../../runner/index.ts";
import type { Clock } from "../../util/clock.ts";
import type { JudgeRunner } from "./run-gates.ts";

export interface JudgeSetup {
  readonly clock: Clock;
  /** Where harnesses keep session files (the run's directory). */
  readonly stateDir: string;
  readonly workspace: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Judge gates through any of our harnesses: one fresh agent session in the workspace with the gate's
 * model, whose final text is the answer. Usage counts toward the run's token meter (null when the
 * harness reported none). A session that does not complete is a gate error.
 */
export function createJudgeRunner(setup: JudgeSetup): JudgeRunner {
  const registry = createHarnessRegistry(
    harnessFactories({ clock: setup.clock, stateDir: setup.stateDir, tempDir: tmpdir(), newId: randomUUID }),
  );
  return async (gate, prompt, signal) => {
    const resolved = resolveModel(gate.model);
    if (!resolved.ok) return { error: `judge ${gate.id}: ${resolved.message}` };
    const model = sessionModelOf(resolved.model);
    let session: ReturnType<ReturnType<typeof registry.forModel>["start"]>;
    try {
      session = registry.forModel(model).start({
        codonId: `gate:${gate.id}`,
        prompt,
        model,
        cwd: setup.workspace,
        env: setup.env,
        autoCompact: false,
        attempt: 1,
        extension: 0,
        signal,
      });
    } catch (caught) {
      return { error: `judge ${gate.id}: ${caught instanceof Error ? caught.message : String(caught)}` };
    }
    let text = "";
    let sawUsage = false;
    for await (const event of session) {
      if (event.type === "assistant.text") text = event.text;
      if (event.type === "usage") sawUsage = true;
    }
    const outcome = await session.outcome;
    if (outcome.kind !== "completed") return { error: `judge ${gate.id} ended ${outcome.kind}` };
    const t = outcome.totals;
    const tokens = t.inputTokens + t.outputTokens + t.cacheCreationTokens + t.cacheReadTokens;
    return { text: outcome.resultText ?? text, tokens: sawUsage || tokens > 0 ? tokens : null };
  };
}
