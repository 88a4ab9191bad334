import { loopTemplateValues } from "../../hank/prompt.ts";
import { finishedCodonIds } from "../../journal/index.ts";
import type { AfterCodonDecision, ExecutionPlan, LoopStop, PlannedCodon } from "../../plan/index.ts";
import {
  applyDecision,
  buildPlan,
  decideAfterCodon,
  LOOP_STOP_RULES,
  nextCodon,
  planSize,
  resolveCodon,
  terminateOnOf,
} from "../../plan/index.ts";
import { runAgentEnv } from "../../workspace/agent-env.ts";
import { type SpentCeiling, spentCeiling } from "../budget/budget-input.ts";
import { LoopLedger } from "../budget/loop-ledger.ts";
import { Attempt, type RunScope } from "../codon/attempt.ts";
import type { ResumeTarget } from "../codon/attempt-end.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import { executeCodon } from "../codon/execute-codon.ts";
import type { EngineDeps, EngineInput, RunResult } from "../engine-types.ts";
import { askCallerRules } from "../loop/caller-stop.ts";
import { loopReportEvents } from "../loop/loop-report.ts";
import { ownPreviousSession, previousSession } from "../session/session-resume.ts";
import { EventLoopTurns } from "./event-loop-turns.ts";
import { type BudgetOutcome, budgetOutcome, emitBudgetSummary } from "./run-budget-summary.ts";
import { completionMessage, type Ending, runEndingAfter } from "./run-ending.ts";
import { type BoundaryDirective, RunInbox } from "./run-inbox.ts";
import { starvedOutcome } from "./starved-codon.ts";
import { Transitions } from "./transitions.ts";

/**
 * Drives a hank to its end: at each codon boundary it reads the run's inbox (pause, skip, redo...),
 * picks the next planned codon, runs it, asks the plan what follows, and records every decision in
 * the journal. The runtime, never the agent, decides when the run stops.
 */
export async function runHank(input: EngineInput, deps: EngineDeps): Promise<RunResult> {
  return new RunDriver(input, deps).run();
}

class RunDriver implements RunScope {
  readonly runId: string;
  readonly transitions: Transitions;
  plan: ExecutionPlan;
  /** Planned codons that are done (completed, skipped, failed and ignored). */
  readonly finished: Set<string>;
  /** Planned codons whose plan-changing decision (next iteration, loop end) the plan already holds. */
  readonly decided: Set<string>;
  readonly exhaustedSessions = new Set<string>();
  readonly budgets = new Map<string, BudgetOutcome>();
  readonly budgetLedger = new LoopLedger();
  readonly agentEnv: Readonly<Record<string, string>>;
  /** The loop context's prompt variables (`<%LOOP_GENERATION%>`...), read from the environment once. */
  readonly loopValues: Readonly<Record<string, string>>;
  readonly inbox: RunInbox | undefined;
  private cursor = 0;
  private lastRun: PlannedCodon | undefined;
  private readonly turns = new EventLoopTurns();

  constructor(
    readonly input: EngineInput,
    readonly deps: EngineDeps,
  ) {
    this.runId = deps.newId();
    const state = deps.sink.state();
    this.transitions = new Transitions(deps.sink, this.runId, state.totals.cost);
    this.plan = input.plan ?? buildPlan(input.hank);
    // Without a plan the run starts fresh from the first codon (a Loop's next generation on a finished
    // execution): what earlier runs finished does not count for it.
    this.finished = input.plan === undefined ? new Set() : finishedCodonIds(state);
    this.decided = new Set(this.finished);
    this.agentEnv = Object.freeze(runAgentEnv(input.processEnv));
    this.loopValues = Object.freeze(loopTemplateValues(input.processEnv));
    this.inbox = deps.control && new RunInbox(deps.control, deps.sink, deps.signal);
  }

  async run(): Promise<RunResult> {
    this.transitions.run("RunStarted", {
      startingConditions: { type: this.input.plan ? "continuation" : "fresh" },
      planSize: planSize(this.input.hank),
    });
    const started = (await this.deps.hooks?.startRun?.(this.runId)) ?? { ok: true };
    const ending = started.ok ? await this.loop() : { status: "failed" as const, message: started.message };
    emitBudgetSummary(this.input, this.deps.sink, this.plan, this.budgets);
    return this.end(ending);
  }

  /** One codon boundary after another until the plan is done or something ends the run. */
  private async loop(): Promise<Ending> {
    while (true) {
      await this.turns.atBoundary();
      if (this.deps.signal.aborted) return { status: "aborted", message: "Run cancelled" };
      const directive = await this.readInbox();
      if (this.deps.signal.aborted) return { status: "aborted", message: "Run cancelled" };
      const ending = await this.follow(directive);
      if (ending !== undefined) return ending;
    }
  }

  private readInbox(): Promise<BoundaryDirective> {
    if (this.inbox === undefined) return Promise.resolve({ kind: "next" });
    return this.inbox.atBoundary({
      plan: this.plan,
      next: this.nextEntry(),
      lastRun: this.lastRun,
      isFinished: (id) => this.finished.has(id),
    });
  }

  /** Performs what the boundary decided; returns how the run ends when it does. */
  private async follow(directive: BoundaryDirective): Promise<Ending | undefined> {
    switch (directive.kind) {
      case "stop":
        return { status: "aborted", message: directive.message };
      case "skip":
        return this.skip(directive.entry);
      case "run":
        this.reopen(directive.entry);
        return this.runEntry(directive.entry);
      case "next": {
        const entry = this.nextEntry();
        if (entry === undefined) return { status: "completed", message: completionMessage(this.deps.sink) };
        const spent = this.spentCeiling(entry);
        return spent === undefined ? this.runEntry(entry) : this.afterCeiling(entry, spent);
      }
    }
  }

  /**
   * The first unfinished planned codon. Entries before the cursor stay finished (decisions only splice
   * or drop entries after the current one), so the scan resumes there: constant work per codon however
   * long a loop runs. A redo or start that reopens an earlier entry moves the cursor back to it.
   */
  private nextEntry(): PlannedCodon | undefined {
    const { entries } = this.plan;
    let index = this.cursor;
    while (index < entries.length && this.finished.has(entries[index]?.runtimeId ?? "")) index += 1;
    this.cursor = index;
    return entries[index] ?? nextCodon(this.plan, this.finished);
  }

  private spentCeiling(next: PlannedCodon): SpentCeiling | undefined {
    const { hank, options } = this.input;
    return spentCeiling(hank, this.plan, next, this.deps.sink, options, this.budgetLedger);
  }

  /**
   * The run's ceiling is used up: the next codon does not start (it could only be stopped at its first
   * billed message). Under `onExceeded: complete` (the default) it completes without starting, as the
   * reference starves it: journaled with `budgetExceeded` and `notStarted`, a loop it belongs to ends
   * (its budget rule, scope hank), and the run goes on to complete; a later start with a higher ceiling
   * runs exactly these codons again. Under `onExceeded: fail` the run fails here.
   */
  private async afterCeiling(next: PlannedCodon, spent: SpentCeiling): Promise<Ending | undefined> {
    if (this.input.hank.overrides?.budget?.onExceeded === "fail") {
      const left = this.plan.entries.filter((entry) => !this.finished.has(entry.runtimeId)).length;
      const others = left > 1 ? ` and ${left - 1} more planned` : "";
      return {
        status: "failed",
        message: `Budget reached: ${spent.message}; codon ${next.runtimeId}${others} not started. Raise --max-cost / --max-time (or the hank's overrides.budget) and run again to continue.`,
      };
    }
    const outcome = starvedOutcome(next, spent, this.deps.sink, terminateOnOf(this.input.hank, next));
    this.budgets.set(next.runtimeId, budgetOutcome(outcome));
    this.lastRun = next;
    const ending = await this.finish(next, outcome);
    this.setIterationAside(next);
    return ending;
  }

  /**
   * The codons after `starved` in its loop iteration stay in the plan (a later start reopens the loop
   * there) but do not run in this run: the ceiling that starved the loop is spent for them too.
   */
  private setIterationAside(starved: PlannedCodon): void {
    const placement = starved.loop;
    if (placement === undefined) return;
    for (const entry of this.plan.entries) {
      const same = entry.loop?.loopId === placement.loopId && entry.loop.iteration === placement.iteration;
      if (same) this.finished.add(entry.runtimeId);
    }
  }

  /**
   * A loop codon stopped by the run's ceiling (a hank-scope budget, now spent) completed gracefully; its
   * loop goes on as after any completion, so the codons after it meet the spent ceiling before they
   * start and are journaled as not started, which ends the loop saying what it left undone (and lets a
   * higher ceiling continue it). A hank-scope stop with the ceiling not spent (a proportional share)
   * ends the loop as before.
   */
  private carryPastCeiling(entry: PlannedCodon, outcome: CodonOutcome): CodonOutcome {
    const { finish } = outcome;
    if (entry.loop === undefined || finish.kind !== "budget-exceeded" || finish.scope !== "hank")
      return outcome;
    return this.spentCeiling(entry) === undefined ? outcome : { ...outcome, finish: { kind: "completed" } };
  }

  /** Makes a planned codon unfinished again (redo, start), so it runs and the cursor can find it. */
  private reopen(entry: PlannedCodon): void {
    this.finished.delete(entry.runtimeId);
    const index = this.plan.entries.findIndex((candidate) => candidate.runtimeId === entry.runtimeId);
    if (index >= 0 && index < this.cursor) this.cursor = index;
  }

  /** Runs one planned codon, parks on a retriable failure when a client can answer, then decides. */
  private async runEntry(entry: PlannedCodon): Promise<Ending | undefined> {
    const codon = resolveCodon(this.input.hank, entry);
    if (codon === undefined) {
      return {
        status: "failed",
        message: `The hank no longer has codon "${entry.configId}" of the saved plan`,
      };
    }
    const terminateOn = terminateOnOf(this.input.hank, entry);
    const resume = this.resumeFor(entry, codon.continuationMode);
    // Attempt numbers continue from the journal: a restart does not reset a codon's retry count.
    const number = (this.deps.sink.codon(entry.runtimeId)?.attempts ?? 0) + 1;
    const executed = await executeCodon(new Attempt(this, entry, codon, number, terminateOn, resume));
    const outcome = this.carryPastCeiling(entry, executed);
    this.budgets.set(entry.runtimeId, budgetOutcome(outcome));
    this.lastRun = entry;
    const { sentinels } = this.deps;
    if (outcome.cancelled) {
      this.deps.sink.emitAll(outcome.pending);
      await sentinels?.unload(entry.runtimeId, "shutdown");
      return { status: "aborted", message: "Run cancelled" };
    }
    this.noteExhaustion(entry, outcome);
    // The codon's sentinels drain before its `codon.completed` is journaled, and unload after it.
    await sentinels?.drain(entry.runtimeId);
    const ending =
      outcome.parkable === true && this.inbox !== undefined
        ? await this.park(entry, outcome)
        : await this.finish(entry, outcome);
    await sentinels?.unload(entry.runtimeId, "codon-complete");
    return ending;
  }

  /**
   * A retriable failure under `onFailure: abort`: its record is journaled and the run waits for a
   * client's answer. Without one (nobody attached) the failure ends the run as a headless run does.
   */
  private async park(entry: PlannedCodon, outcome: CodonOutcome): Promise<Ending | undefined> {
    this.deps.sink.emitAll(outcome.pending);
    const answer = await this.inbox?.parkOnFailure(entry, `Codon ${entry.runtimeId} failed`);
    switch (answer?.kind) {
      case "retry":
        return undefined;
      case "skip":
        return this.skip(entry);
      case "stop":
        return this.finish(entry, { ...outcome, pending: [] }, answer.message);
      default:
        return this.finish(entry, { ...outcome, pending: [] });
    }
  }

  /** A skipped codon counts as done: its loop carries on and its decision is applied as for any end. */
  private skip(entry: PlannedCodon): Promise<Ending | undefined> {
    this.transitions.codon(entry.runtimeId, "skipped");
    this.lastRun = entry;
    return this.finish(entry, { finish: { kind: "skipped" }, pending: [] });
  }

  /** Decides what follows a finished codon, journals it with the codon's record, and persists. */
  private async finish(
    entry: PlannedCodon,
    outcome: CodonOutcome,
    stopMessage?: string,
  ): Promise<Ending | undefined> {
    const callerStop = this.decided.has(entry.runtimeId)
      ? undefined
      : await askCallerRules(
          { hank: this.input.hank, rules: this.input.stopRules, entry, outcome },
          this.deps.signal,
        );
    if (callerStop !== undefined && "failed" in callerStop) {
      this.deps.sink.emitAll(outcome.pending);
      return { status: "failed", message: callerStop.failed };
    }
    const ending = await this.afterCodon(entry, outcome, callerStop);
    this.deps.hooks?.persist?.(this.plan);
    return stopMessage === undefined ? ending : { status: "aborted", message: stopMessage };
  }

  /** Applies the plan's decision and reports loop iterations; returns how the run ends, if it does. */
  private async afterCodon(
    entry: PlannedCodon,
    outcome: CodonOutcome,
    callerStop: LoopStop | undefined,
  ): Promise<Ending | undefined> {
    const { sink } = this.deps;
    const terminateOn = terminateOnOf(this.input.hank, entry);
    const rules = callerStop === undefined ? LOOP_STOP_RULES : [...LOOP_STOP_RULES, () => callerStop];
    const decision = decideAfterCodon({ entry, finish: outcome.finish, terminateOn }, rules);
    if (outcome.finish.kind !== "failed") this.finished.add(entry.runtimeId);
    if (decision.kind === "codon-fails") {
      sink.emitAll(outcome.pending);
      return { status: "failed", message: decision.message };
    }
    const fresh = !this.decided.has(entry.runtimeId);
    if (fresh) this.plan = applyDecision(this.plan, decision);
    if (fresh && (decision.kind === "next-iteration" || decision.kind === "loop-ends")) {
      this.decided.add(entry.runtimeId);
    }
    sink.emitAll([
      ...outcome.pending,
      ...(fresh ? loopReportEvents(this.plan, sink, decision, outcome) : []),
    ]);
    if (fresh && decision.kind === "loop-ends" && decision.runContinues) {
      const problem = await this.finishLoop(decision);
      if (problem !== undefined) return { status: "failed", message: problem };
    }
    return runEndingAfter(decision, outcome, entry);
  }

  private async finishLoop(decision: Extract<AfterCodonDecision, { kind: "loop-ends" }>) {
    const hook = this.deps.hooks?.finishLoop;
    if (hook === undefined) return undefined;
    const done = await hook({ loopId: decision.loopId, iteration: decision.iteration, runId: this.runId });
    return done.ok ? undefined : done.message;
  }

  /** Which session a codon resumes: the previous codon's, its own of the last iteration, or none. */
  private resumeFor(entry: PlannedCodon, mode: string | undefined): ResumeTarget | undefined {
    const atCursor = this.plan.entries[this.cursor]?.runtimeId === entry.runtimeId;
    const query = {
      plan: this.plan,
      entry,
      previousHint: atCursor && this.cursor > 0 ? this.plan.entries[this.cursor - 1] : undefined,
      sink: this.deps.sink,
      exhaustedSessions: this.exhaustedSessions,
    };
    if (mode === "continue-previous") return previousSession(query);
    const own = this.input.continueOwnSession;
    if (own?.has(entry.configId) === true) return ownPreviousSession(query, own);
    return undefined;
  }

  private noteExhaustion(entry: PlannedCodon, outcome: CodonOutcome): void {
    if (!outcome.sessionExhausted) return;
    const sessionId = this.deps.sink.codon(entry.runtimeId)?.sessionId;
    if (sessionId) this.exhaustedSessions.add(sessionId);
  }

  private end(ending: Ending): RunResult {
    const { sink } = this.deps;
    if (ending.status === "completed") {
      this.transitions.run("RunCompleted", { message: ending.message });
      sink.emit("server.idle", { reason: "all-codons-completed", message: ending.message });
    } else if (ending.status === "aborted") {
      // A user's stop is no failure: it is said, not reported as a fatal error.
      sink.emit("info", { message: `Run stopped: ${ending.message}` });
      this.transitions.run("RunFailed", { reason: "aborted", message: ending.message });
    } else {
      sink.emit("error", { message: ending.message, fatal: true, severity: "fatal" });
      this.transitions.run("RunFailed", { reason: "failed", message: ending.message });
    }
    return {
      runId: this.runId,
      status: ending.status,
      exitCode: ending.status === "failed" ? 1 : 0,
      message: ending.message,
      plan: this.plan,
    };
  }
}
