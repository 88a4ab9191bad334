import { setImmediate } from "node:timers/promises";
import type { CodonRecord, RunState } from "../journal/index.ts";
import type { AfterCodonDecision, ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import {
  applyDecision,
  buildPlan,
  decideAfterCodon,
  findPrevious,
  nextCodon,
  resolveCodon,
  terminateOnOf,
} from "../plan/index.ts";
import { runAgentEnv } from "../workspace/agent-env.ts";
import type { ResumeTarget } from "./attempt-types.ts";
import type { CodonBudgetRecord } from "./budget/index.ts";
import { budgetSummary, effectiveCeiling } from "./budget/index.ts";
import type { EngineDeps, EngineInput, RunResult } from "./engine-types.ts";
import type { EventDraftOf } from "./event-sink.ts";
import { type CodonOutcome, executeCodon } from "./execute-codon.ts";
import { iterationStats } from "./loop-iteration-stats.ts";
import { Transitions } from "./transitions.ts";

/** Codons an earlier run already finished: completed, skipped, or failed and ignored. */
function finishedIn(state: RunState): Set<string> {
  const done = (r: CodonRecord): boolean =>
    r.status === "completed" || r.status === "skipped" || (r.status === "failed" && r.failureIgnored);
  return new Set(state.codons.filter(done).map((r) => r.id));
}

/**
 * Drives a hank to its end: picks the next planned codon, runs it, asks the plan what follows, and
 * records every decision in the journal. The runtime, never the agent, decides when the run stops.
 */
export async function runHank(input: EngineInput, deps: EngineDeps): Promise<RunResult> {
  const driver = new RunDriver(input, deps);
  return driver.run();
}

class RunDriver {
  readonly runId: string;
  readonly transitions: Transitions;
  plan: ExecutionPlan;
  readonly finished: Set<string>;
  readonly exhaustedSessions = new Set<string>();
  /** What each codon ran under, for the budget summary; only the two fields it reads, kept small. */
  readonly budgets = new Map<string, BudgetOutcome>();
  readonly agentEnv: Readonly<Record<string, string>>;
  private cursor = 0;

  constructor(
    private readonly input: EngineInput,
    private readonly deps: EngineDeps,
  ) {
    this.runId = deps.newId();
    const state = deps.sink.state();
    this.transitions = new Transitions(deps.sink, this.runId, state.totals.cost);
    this.plan = input.plan ?? buildPlan(input.hank);
    this.finished = finishedIn(state);
    this.agentEnv = Object.freeze(runAgentEnv(input.processEnv));
  }

  async run(): Promise<RunResult> {
    this.transitions.run("RunStarted", {
      startingConditions: { type: this.input.plan ? "continuation" : "fresh" },
    });
    const started = (await this.deps.hooks?.startRun?.(this.runId)) ?? { ok: true };
    const ending = started.ok ? await this.loop() : { status: "failed" as const, message: started.message };
    this.emitBudgetSummary();
    return this.end(ending);
  }

  private async loop(): Promise<{ status: RunResult["status"]; message: string }> {
    while (true) {
      // A codon can run start to end in microtasks (the scripted agent, a journal without async I/O);
      // yielding to the event loop at each boundary lets timers, signals and I/O callbacks in between.
      await setImmediate();
      const entry = this.nextEntry();
      if (entry === undefined) return { status: "completed", message: "All codons completed" };
      if (this.deps.signal.aborted) return { status: "aborted", message: "Run cancelled" };
      const codon = resolveCodon(this.input.hank, entry);
      if (codon === undefined) {
        return {
          status: "failed",
          message: `The hank no longer has codon "${entry.configId}" of the saved plan`,
        };
      }
      const terminateOn = terminateOnOf(this.input.hank, entry);
      const outcome = await executeCodon({
        entry,
        codon,
        ...(terminateOn !== undefined && { terminateOn }),
        plan: this.plan,
        runId: this.runId,
        ...(codon.continuationMode === "continue-previous" && { resume: this.resumeFor(entry) }),
        input: this.input,
        agentEnv: this.agentEnv,
        deps: this.deps,
        transitions: this.transitions,
      });
      this.budgets.set(entry.runtimeId, budgetOutcome(outcome));
      if (outcome.cancelled) {
        this.deps.sink.emitAll(outcome.pending);
        return { status: "aborted", message: "Run cancelled" };
      }
      this.noteExhaustion(entry, outcome);
      const stop = await this.afterCodon(entry, outcome);
      this.deps.hooks?.persist?.(this.plan);
      if (stop !== undefined) return stop;
    }
  }

  /**
   * The first unfinished planned codon. Entries before the cursor stay finished (decisions only splice
   * or drop entries after the current one), so the scan resumes there: constant work per codon however
   * long a loop runs.
   */
  private nextEntry(): PlannedCodon | undefined {
    const { entries } = this.plan;
    let index = this.cursor;
    while (index < entries.length && this.finished.has(entries[index]?.runtimeId ?? "")) index += 1;
    this.cursor = index;
    return entries[index] ?? nextCodon(this.plan, this.finished);
  }

  /** Applies the plan's decision and reports loop iterations; returns how the run ends, if it does. */
  private async afterCodon(
    entry: PlannedCodon,
    outcome: CodonOutcome,
  ): Promise<{ status: RunResult["status"]; message: string } | undefined> {
    const terminateOn = terminateOnOf(this.input.hank, entry);
    const decision = decideAfterCodon({ entry, finish: outcome.finish, terminateOn });
    if (outcome.finish.kind !== "failed") this.finished.add(entry.runtimeId);
    if (decision.kind === "codon-fails") {
      this.deps.sink.emitAll(outcome.pending);
      return { status: "failed", message: decision.message };
    }
    this.plan = applyDecision(this.plan, decision);
    this.deps.sink.emitAll([...outcome.pending, ...this.loopEvents(decision, outcome)]);
    if (decision.kind === "loop-ends" && decision.runContinues) {
      const hook = this.deps.hooks?.finishLoop;
      const done = hook
        ? await hook({ loopId: decision.loopId, iteration: decision.iteration, runId: this.runId })
        : undefined;
      if (done !== undefined && !done.ok) return { status: "failed", message: done.message };
    }
    const failed = outcome.runFailure ?? `Codon ${entry.runtimeId} failed`;
    if (decision.kind === "halt") return { status: "failed", message: failed };
    if (decision.kind === "loop-ends" && !decision.runContinues) return { status: "failed", message: failed };
    if (outcome.finish.kind === "failed") return { status: "failed", message: failed };
    return undefined;
  }

  /** The loop's iteration report for a decision that ends an iteration; the codon is counted as done. */
  private loopEvents(decision: AfterCodonDecision, outcome: CodonOutcome): EventDraftOf[] {
    if (decision.kind !== "next-iteration" && decision.kind !== "loop-ends") return [];
    const finalRecord = outcome.pending.find((draft) => draft.type === "codon.completed");
    const last = finalRecord?.type === "codon.completed" ? finalRecord.data : undefined;
    const stats = iterationStats(
      this.plan,
      (id) => this.deps.sink.codon(id),
      decision.loopId,
      decision.iteration,
      last,
    );
    const events: EventDraftOf[] = [
      {
        type: "loop.iteration.completed",
        data: {
          loopId: decision.loopId,
          iteration: decision.iteration,
          durationMs: stats.durationMs,
          costUsd: stats.costUsd,
          tokensUsed: stats.tokensUsed,
          isFinal: decision.kind === "loop-ends",
          ...(decision.kind === "loop-ends" &&
            decision.terminationReason !== undefined && { terminationReason: decision.terminationReason }),
        },
      },
    ];
    if (decision.kind === "loop-ends" && decision.cause === "budget") {
      events.push({
        type: "info",
        data: { message: `Loop ${decision.loopId} ended: its budget is exhausted` },
      });
    }
    return events;
  }

  /** The previous codon's session, unless there is none or its context is used up. */
  private resumeFor(entry: PlannedCodon): ResumeTarget {
    const atCursor = this.plan.entries[this.cursor]?.runtimeId === entry.runtimeId;
    const previous = atCursor ? this.plan.entries[this.cursor - 1] : findPrevious(this.plan, entry.runtimeId);
    if (previous === undefined) {
      return {
        problem: `Codon ${entry.runtimeId} continues the previous session, but there is no previous codon`,
      };
    }
    const sessionId = this.deps.sink.codon(previous.runtimeId)?.sessionId ?? null;
    if (sessionId === null) {
      return {
        problem: `Codon ${entry.runtimeId} continues ${previous.runtimeId}, which has no session to resume`,
      };
    }
    if (this.exhaustedSessions.has(sessionId)) {
      return {
        problem: `Codon ${entry.runtimeId} cannot continue ${previous.runtimeId}: that session's context is exhausted`,
      };
    }
    return { sessionId };
  }

  private noteExhaustion(entry: PlannedCodon, outcome: CodonOutcome): void {
    if (!outcome.sessionExhausted) return;
    const sessionId = this.deps.sink.codon(entry.runtimeId)?.sessionId;
    if (sessionId) this.exhaustedSessions.add(sessionId);
  }

  private emitBudgetSummary(): void {
    const hankBudget = this.input.hank.overrides?.budget;
    const { maxCostUsd, maxTimeSeconds } = this.input.options;
    const cli = {
      ...(maxCostUsd !== undefined && { maxDollars: maxCostUsd }),
      ...(maxTimeSeconds !== undefined && { maxTimeSeconds }),
    };
    const records = new Map(this.deps.sink.state().codons.map((record) => [record.id, record]));
    const codons: CodonBudgetRecord[] = [];
    for (const entry of this.plan.entries) {
      const record = records.get(entry.runtimeId);
      if (record === undefined) continue;
      codons.push(budgetRecord(entry, record, this.budgets.get(entry.runtimeId)));
    }
    const summary = budgetSummary({
      ceiling: effectiveCeiling({ hank: hankBudget, cli }),
      allocation: hankBudget?.allocation ?? "shared",
      codons,
    });
    this.deps.sink.emit("budget.summary", { ...summary, rows: [...summary.rows] });
  }

  private end(ending: { status: RunResult["status"]; message: string }): RunResult {
    const { sink } = this.deps;
    if (ending.status === "completed") {
      this.transitions.run("RunCompleted");
      sink.emit("server.idle", { reason: "all-codons-completed", message: ending.message });
    } else {
      sink.emit("error", { message: ending.message, fatal: true, severity: "fatal" });
      this.transitions.run("RunFailed", { reason: ending.status === "aborted" ? "aborted" : "failed" });
    }
    return {
      runId: this.runId,
      status: ending.status,
      exitCode: ending.status === "completed" ? 0 : 1,
      message: ending.message,
      plan: this.plan,
    };
  }
}

type BudgetOutcome = Pick<CodonOutcome, "limits" | "exceeded">;

function budgetOutcome(outcome: CodonOutcome): BudgetOutcome {
  return {
    ...(outcome.limits !== undefined && { limits: outcome.limits }),
    ...(outcome.exceeded !== undefined && { exceeded: outcome.exceeded }),
  };
}

function budgetRecord(
  entry: PlannedCodon,
  record: CodonRecord,
  outcome: BudgetOutcome | undefined,
): CodonBudgetRecord {
  const status =
    record.status === "completed" || record.status === "failed" || record.status === "skipped"
      ? record.status
      : "running";
  return {
    codonId: entry.runtimeId,
    ...(entry.loop !== undefined && {
      loopContext: {
        loopId: entry.loop.loopId,
        iteration: entry.loop.iteration,
        codonIndexInLoop: entry.loop.position,
      },
    }),
    status,
    ...(outcome?.limits !== undefined && { limits: outcome.limits }),
    ...(outcome?.exceeded !== undefined && { exceeded: outcome.exceeded }),
    actual: {
      dollars: record.cost,
      timeSeconds: record.durationMs / 1000,
      outputTokens: record.tokens.output,
    },
  };
}
