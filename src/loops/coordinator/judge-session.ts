import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Clock } from "../../util/clock.ts";
import { run } from "../../workflows/index.ts";
import type { JudgeRunner } from "./run-gates.ts";

export interface JudgeSetup {
  readonly clock: Clock;
  /** The run's directory: each judge call keeps its own execution (journal, checkpoints) under it. */
  readonly stateDir: string;
  readonly workspace: string;
  readonly env: Readonly<Record<string, string>>;
}

/** A judge that has not answered in this long is stopped: a gate never hangs a Loop. */
export const JUDGE_TIMEOUT_MS = 15 * 60 * 1000;
/** Seconds a judge's agent may stay silent before it is stopped. */
export const JUDGE_IDLE_SECONDS = 300;

/**
 * Judge gates through the runtime's single step, `run()` of the workflows: one fresh agent session with
 * the gate's model, on the runner like every other session, so a judge has a time limit
 * (`JUDGE_TIMEOUT_MS`), an idle timeout, its usage metered and its own journal (a durable execution in
 * the run's directory, `judges/<gate>-<id>/`). It works in that execution's workspace, with the body's
 * workspace linked read-only at `read_only_data_source/`. Its final text is the answer; usage counts
 * toward the run's token meter. A step that does not end well is a gate error.
 */
export function createJudgeRunner(setup: JudgeSetup): JudgeRunner {
  return async (gate, prompt, signal) => {
    const dir = join(
      setup.stateDir,
      "judges",
      `${gate.id.replace(/[^\w.-]/g, "_")}-${randomUUID().slice(0, 8)}`,
    );
    const result = await run(
      { name: `judge-${gate.id}`, model: gate.model, idleTimeoutSeconds: JUDGE_IDLE_SECONDS },
      prompt,
      {
        cwd: setup.workspace,
        env: setup.env,
        signal,
        clock: setup.clock,
        timeoutMs: JUDGE_TIMEOUT_MS,
        durable: { dir },
      },
    ).catch((caught: unknown) => ({ thrown: caught instanceof Error ? caught.message : String(caught) }));
    if ("thrown" in result) return { error: `judge ${gate.id}: ${result.thrown}` };
    const step = result.steps.at(-1);
    if (!result.ok || step === undefined) {
      return { error: `judge ${gate.id}: ${result.error?.message ?? "the judge did not answer"}` };
    }
    const u = step.usage;
    const tokens = u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    return { text: step.output, tokens: tokens > 0 ? tokens : null };
  };
}
