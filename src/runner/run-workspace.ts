import type {
  EngineHooks,
  EngineOptions,
  EventListener,
  EventSink,
  EventStore,
  RunResult,
  SentinelHost,
} from "../engine/index.ts";
import { createEventSink, type LoopStopPredicate, runHank } from "../engine/index.ts";
import type { ResolvedModel } from "../hank/models/index.ts";
import type { HeldPrompts } from "../hank/prompt.ts";
import type { HankFile } from "../hank/schema/index.ts";
import type { HarnessRegistry, ToolSettings } from "../harness/harness.ts";
import type { RunState } from "../journal/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";
import { createSentinelHost } from "../sentinels/index.ts";
import type { Clock } from "../util/clock.ts";
import type { RunChannels } from "./run-channels.ts";

/** One run of a validated hank in a workspace that is already laid out, with its journal open. */
export interface WorkspaceRun {
  readonly hank: HankFile;
  readonly hankDir: string;
  readonly models: ReadonlyMap<string, ResolvedModel>;
  readonly agentRoot: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly options: EngineOptions;
  /** The plan to continue; a fresh plan is built when absent. */
  readonly plan?: ExecutionPlan;
  readonly stopRules?: readonly LoopStopPredicate[];
  readonly continueOwnSession?: Readonly<Record<string, string>>;
  /** Tool settings of codons by config id (see `ExecutionOptions.codonTools`). */
  readonly codonTools?: Readonly<Record<string, ToolSettings>>;
  /** Prompt files held in memory (see `HeldPrompts`). */
  readonly heldPrompts?: HeldPrompts;
  readonly clock: Clock;
  /** Run ids. */
  readonly newId: () => string;
  /** The run's sink, from `openRunSink`. */
  readonly sink: EventSink;
  readonly harnesses: HarnessRegistry;
  readonly hooks?: EngineHooks;
  readonly channels: RunChannels;
  readonly signal: AbortSignal;
  /**
   * Where sentinel outputs go (default `.hankweave/sentinels/outputs` beside agentRoot) and the run's
   * `-m` override (a scripted one makes the sentinels scripted too).
   */
  readonly sentinels?: { readonly outputsDir?: string; readonly modelOverride?: string };
}

export interface RunSinkInput {
  /** The journal (a `JournalWriter`). */
  readonly store: EventStore;
  /** The state the journal's earlier runs reduce to. */
  readonly initialState?: RunState;
  /** Inline listeners (the progress printer), called with the state after each event. */
  readonly listeners?: readonly EventListener[];
  readonly channels: RunChannels;
}

/**
 * The sink every run writes through: the journal first (the truth), the run state, the inline
 * listeners, then the event bus; the bus's warnings (a failing or lagging subscriber) are journaled.
 */
export function openRunSink(input: RunSinkInput): EventSink {
  const { events, warnings } = input.channels;
  const sink = createEventSink({
    store: input.store,
    ...(input.initialState !== undefined && { initialState: input.initialState }),
    listeners: [...(input.listeners ?? []), (event) => events.publish(event)],
  });
  warnings.connect((message) => {
    sink.emit("error", { message, fatal: false, severity: "warning", context: "event subscriber" });
  });
  return sink;
}

/**
 * The composition every run shares, whoever laid the workspace out (the runner's execution directory,
 * the test kit's temp directory): the engine over the run's sink, inbox, harnesses and hooks, with the
 * codons' sentinels fed by the run's event bus.
 */
export async function runWorkspace(run: WorkspaceRun): Promise<RunResult> {
  const sentinels = createSentinelHost({
    hankDir: run.hankDir,
    agentRoot: run.agentRoot,
    env: run.env,
    clock: run.clock,
    sink: run.sink,
    signal: run.signal,
    ...run.sentinels,
  });
  const observing = run.channels.events.subscribe((event) => sentinels.observe(event), { name: "sentinels" });
  try {
    return await runEngine(run, sentinels);
  } finally {
    await sentinels.shutdown();
    observing.unsubscribe();
  }
}

function runEngine(run: WorkspaceRun, sentinels: SentinelHost): Promise<RunResult> {
  return runHank(
    {
      hank: run.hank,
      hankDir: run.hankDir,
      models: run.models,
      agentRoot: run.agentRoot,
      processEnv: run.env,
      options: run.options,
      ...(run.plan !== undefined && { plan: run.plan }),
      ...(run.stopRules !== undefined && { stopRules: run.stopRules }),
      ...(run.continueOwnSession !== undefined && {
        continueOwnSession: new Map(Object.entries(run.continueOwnSession)),
      }),
      ...(run.codonTools !== undefined && { codonTools: new Map(Object.entries(run.codonTools)) }),
      ...(run.heldPrompts !== undefined && { heldPrompts: run.heldPrompts }),
    },
    {
      clock: run.clock,
      newId: run.newId,
      sink: run.sink,
      harnesses: run.harnesses,
      signal: run.signal,
      control: run.channels.control,
      sentinels,
      ...(run.hooks !== undefined && { hooks: run.hooks }),
    },
  );
}
