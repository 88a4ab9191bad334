import type { ResolvedModel } from "../../hank/models/index.ts";
import type { PromptMetadata } from "../../hank/prompt.ts";
import type { Codon, TerminateOn } from "../../hank/schema/index.ts";
import type { Harness, SessionRequest } from "../../harness/harness.ts";
import type { ActiveCodonStatus } from "../../journal/index.ts";
import type { ExecutionPlan, PlannedCodon } from "../../plan/index.ts";
import { withCodonEnv } from "../../workspace/agent-env.ts";
import { type LoopLedger, resolveLimits } from "../budget/budget-input.ts";
import type { CodonLimits } from "../budget/index.ts";
import type { CodonContext, EngineDeps, EngineInput } from "../engine-types.ts";
import type { Transitions } from "../run/transitions.ts";
import { idleTimeoutMs } from "../session/idle-timeout.ts";
import { sessionModelOf } from "../session/session-model.ts";
import type { ResumeTarget } from "./attempt-end.ts";
import { buildPrompts } from "./build-prompts.ts";

/**
 * What a run shares with every codon it runs, built once per run (the run driver is one): an attempt
 * keeps a reference to it instead of a copy of each field.
 */
export interface RunScope {
  readonly runId: string;
  readonly input: EngineInput;
  readonly deps: EngineDeps;
  readonly transitions: Transitions;
  /** `runAgentEnv(input.processEnv)`: each attempt adds its codon's `env`. */
  readonly agentEnv: Readonly<Record<string, string>>;
  /** `loopTemplateValues(input.processEnv)`: the loop context's prompt variables. */
  readonly loopValues: Readonly<Record<string, string>>;
  /** Running totals of finished loop executions, so budgets cost the same at every iteration. */
  readonly budgetLedger: LoopLedger;
  /** The plan as it stands when the attempt starts. */
  readonly plan: ExecutionPlan;
}

/** What the agent session of an attempt starts from (step 3 of `executeCodon`). */
export interface SessionSetup {
  readonly harness: Harness;
  readonly model: ResolvedModel;
  readonly prompt: string;
  readonly systemPrompt?: string;
  readonly promptMetadata?: PromptMetadata;
  readonly env: Readonly<Record<string, string>>;
  readonly idleTimeoutMs: number;
}

/** One session of an attempt: the first, or an `exhaustWithPrompt` extension resuming the one before. */
export interface SessionLeg {
  readonly extension: number;
  readonly prompt: string;
  readonly resumeSessionId: string | undefined;
}

/**
 * One attempt of one planned codon, from its rig setup to the end of its last agent session: the one
 * object the codon path hands down (workspace hooks and sentinels see it as their `CodonContext`).
 * The budget it runs under is resolved when it is made, so a retry (`next`) sees what the failed
 * attempt spent.
 */
export class Attempt implements CodonContext {
  readonly limits: CodonLimits;
  /** When the attempt started, on the run's clock: its duration and its duration budget count from here. */
  readonly startMs: number;

  constructor(
    readonly run: RunScope,
    readonly entry: PlannedCodon,
    readonly codon: Codon,
    /** The attempt's number, continuing from the journal (a restart does not reset it). */
    readonly attempt: number,
    /** The codon's loop condition, when it belongs to a loop. */
    readonly terminateOn: TerminateOn | undefined,
    /** For `continue-previous` (or a kept loop session): the session to resume, or why there is none. */
    readonly resume: ResumeTarget | undefined,
  ) {
    const { input, deps } = run;
    this.limits = resolveLimits(
      input.hank,
      run.plan,
      entry,
      codon,
      deps.sink,
      input.options,
      run.budgetLedger,
    );
    this.startMs = deps.clock.now();
  }

  get runId(): string {
    return this.run.runId;
  }

  get deps(): EngineDeps {
    return this.run.deps;
  }

  /** The same codon's attempt numbered `attempt`, with its budget resolved afresh. */
  next(attempt: number): Attempt {
    return new Attempt(this.run, this.entry, this.codon, attempt, this.terminateOn, this.resume);
  }

  elapsedMs(): number {
    return this.run.deps.clock.now() - this.startMs;
  }

  /** Journals the codon's new status (`codon.status`), as the run's live state sees it. */
  status(status: ActiveCodonStatus, extra?: { readonly attempt: number }): void {
    this.run.transitions.codon(this.entry.runtimeId, status, extra);
  }

  /**
   * Step 3: what the agent session starts from. Prompt files are read now, so the attempt uses them
   * as they are. Any problem here is permanent: a retry would meet the same configuration.
   */
  sessionSetup(): { ok: true; value: SessionSetup } | { ok: false; message: string } {
    const { input } = this.run;
    const { codon } = this;
    const prompts = buildPrompts(input.hank, codon, {
      hankDir: input.hankDir,
      agentRoot: input.agentRoot,
      ...(input.heldPrompts !== undefined && { held: input.heldPrompts }),
      loop: this.run.loopValues,
    });
    if (!prompts.ok) return prompts;
    const model = input.models.get(codon.model);
    if (model === undefined) return { ok: false, message: `Model '${codon.model}' was not resolved` };
    const harness = this.harnessFor(model);
    if (!harness.ok) return harness;
    if (this.resume !== undefined && "problem" in this.resume)
      return { ok: false, message: this.resume.problem };
    const value: SessionSetup = {
      harness: harness.value,
      model,
      prompt: prompts.prompt,
      ...(prompts.systemPrompt !== undefined && { systemPrompt: prompts.systemPrompt }),
      ...(prompts.metadata !== undefined && { promptMetadata: prompts.metadata }),
      env: withCodonEnv(this.run.agentEnv, codon.env),
      idleTimeoutMs: idleTimeoutMs({
        codon: codon.shimIdleTimeout,
        hank: input.hank.overrides?.shimIdleTimeout,
        cli: input.options.agentIdleTimeoutSeconds,
        harnessDefault: harness.value.defaultIdleTimeoutSeconds,
      }),
    };
    return { ok: true, value };
  }

  /** The session to resume at the first leg, when the attempt continues one. */
  resumedSessionId(): string | undefined {
    return this.resume !== undefined && "sessionId" in this.resume ? this.resume.sessionId : undefined;
  }

  /** The harness request of one leg of the attempt (the signal is the session's own). */
  request(setup: SessionSetup, leg: SessionLeg): Omit<SessionRequest, "signal"> {
    const tools = this.run.input.codonTools?.get(this.entry.configId);
    return {
      codonId: this.entry.runtimeId,
      prompt: leg.prompt,
      ...(setup.systemPrompt !== undefined && { systemPrompt: setup.systemPrompt }),
      model: sessionModelOf(setup.model),
      cwd: this.run.input.agentRoot,
      env: setup.env,
      ...(leg.resumeSessionId !== undefined && { resumeSessionId: leg.resumeSessionId }),
      autoCompact: this.codon.autoCompact ?? false,
      attempt: this.attempt,
      extension: leg.extension,
      ...(tools !== undefined && { tools }),
    };
  }

  private harnessFor(model: ResolvedModel): { ok: true; value: Harness } | { ok: false; message: string } {
    try {
      return { ok: true, value: this.run.deps.harnesses.forModel(sessionModelOf(model)) };
    } catch (cause) {
      return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
    }
  }
}
