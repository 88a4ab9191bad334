/**
 * `hankweave/engine`: the pieces below `runExecution`, for programs that compose their own run (their
 * own workspace, event store or checkpointer): the engine and its run control, plans, the journal and
 * its event bus, sentinels, and the runner's composition steps. These follow the engine's shape and
 * may change with it; the root `hankweave` is the stable library.
 */

export type {
  CodonContext,
  CodonResult,
  CodonUsage,
  EngineDeps,
  EngineHooks,
  EngineInput,
  EngineOptions,
  EventDraftOf,
  EventListener,
  EventSink,
  EventStore,
  HookResult,
  InboxCommand,
  RunResult,
  SentinelHost,
  SentinelLoad,
} from "../engine/index.ts";
export { createEventSink, RESULT_TEXT_LIMIT, RunControl, runHank } from "../engine/index.ts";
export { END_REASONS, HankEventSchema } from "../events/index.ts";
export { formatJsonPath } from "../hank/issues.ts";
export { applyModelOverride } from "../hank/load.ts";
export { type ResolvedModel, resolveModel } from "../hank/models/index.ts";
export type { Codon, CodonInput, HankFileInput, TerminateOn } from "../hank/schema/index.ts";
export type { ValidationContext } from "../hank/validate/index.ts";
export type {
  AsyncDelivery,
  EventBus,
  EventBusOptions,
  OverflowNotice,
  Subscription,
} from "../journal/index.ts";
export {
  createEventBus,
  initialRunState,
  isOverflowNotice,
  JournalWriter,
  loadRunState,
  MemoryEventStore,
  reduce,
} from "../journal/index.ts";
export type {
  AfterCodonDecision,
  CodonFinish,
  ExecutionPlan,
  LoopStopRule,
  PlannedCodon,
} from "../plan/index.ts";
export { buildPlan, decideAfterCodon, LOOP_STOP_RULES, nextIteration } from "../plan/index.ts";
export type { LoadedHank, LoadHankInput, RunChannels, RunSinkInput, WorkspaceRun } from "../runner/index.ts";
export { createRunChannels, openRunSink, runWorkspace } from "../runner/index.ts";
export { createSentinelHost, type RunSentinels, type SentinelHostOptions } from "../sentinels/index.ts";
export type { TimerHandle } from "../util/clock.ts";
