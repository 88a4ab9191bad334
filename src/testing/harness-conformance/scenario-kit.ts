import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DataOf } from "../../journal/index.ts";
import type { ConformanceSetup, ConformanceTarget, ScenarioName } from "./conformance-types.ts";
import { type ConformanceRun, runConformanceHank } from "./run-conformance-hank.ts";
import type { SessionDirector } from "./session-director.ts";
import type { SessionPlan } from "./session-plan.ts";

/** What a scenario runs against: the harness's setup, its started fixtures, and the director. */
export interface ScenarioContext {
  readonly setup: ConformanceSetup;
  readonly target: ConformanceTarget;
  readonly director: SessionDirector;
}

/** One conformance scenario: a hank, the sessions' plans, and the assertions on the run. */
export interface Scenario {
  readonly name: ScenarioName;
  readonly title: string;
  run(context: ScenarioContext): Promise<ConformanceRun>;
}

/**
 * Runs the hank, checks that exactly the planned sessions ran, and hands the run to `check`. The
 * temp directory is removed after the checks, pass or fail; the run is returned for timing figures.
 */
export async function runScenario(
  context: ScenarioContext,
  hank: unknown,
  plans: readonly SessionPlan[],
  check: (run: ConformanceRun) => void,
): Promise<ConformanceRun> {
  const run = await runConformanceHank({
    hank,
    model: context.setup.model,
    plans,
    target: context.target,
    director: context.director,
  });
  try {
    assert.equal(context.director.started(), plans.length, "sessions started");
    check(run);
    return run;
  } finally {
    run.remove();
  }
}

/** A codon attempt as the conformance checks compare it: who, which attempt, and how it ended. */
export interface AttemptSummary {
  readonly codonId: string;
  readonly attempt: number;
  readonly success: boolean;
  readonly failure?: { readonly type: string; readonly retriable: boolean };
}

export function attempts(run: ConformanceRun): AttemptSummary[] {
  return run.data("codon.completed").map(summarize);
}

function summarize(done: DataOf<"codon.completed">): AttemptSummary {
  const reason = done.failureReason;
  return {
    codonId: done.codonId,
    attempt: done.attempt ?? 1,
    success: done.success,
    ...(reason !== undefined && { failure: { type: reason.type, retriable: reason.retriable } }),
  };
}

/** The `codon.completed` of one attempt; fails the test when there is none. */
export function completedOf(run: ConformanceRun, codonId: string, attempt = 1): DataOf<"codon.completed"> {
  const found = run
    .data("codon.completed")
    .find((c) => c.codonId === codonId && (c.attempt ?? 1) === attempt);
  assert.ok(found, `codon.completed of ${codonId} attempt ${attempt}`);
  return found;
}

/** A workspace file's text, or null when it does not exist. */
export function fileText(run: ConformanceRun, path: string): string | null {
  const full = join(run.agentRoot, path);
  return existsSync(full) ? readFileSync(full, "utf8") : null;
}

/** The messages of the run's `info` events. */
export function infoMessages(run: ConformanceRun): string[] {
  return run.data("info").map((info) => info.message);
}

/** Retry settings that never wait: the scenarios are about the decision, not the backoff. */
export const NO_WAIT_RETRY = { delayMs: 0, maxDelayMs: 0 } as const;
