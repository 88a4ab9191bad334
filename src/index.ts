/**
 * hankweave as a library. `runExecution` runs a hank for real (execution directory, lock, workspace,
 * git checkpoints, journal, crash recovery), the way the CLI does; the pieces below it are exported for
 * programs that compose their own. Every export is named here on purpose: nothing internal leaks out
 * through a wildcard. The test kit (scripted-agent helpers, fake clock, fake providers, conformance
 * suites) is `hankweave/testing`.
 */

export { createGitCheckpointer } from "./checkpoint/git/index.ts";
// Checkpoints: the contract and its implementations.
export type { Checkpointer, CheckpointRecord, CommitInput, RestoreReport } from "./checkpoint/index.ts";
export { createMemoryCheckpointer, createMemoryCheckpointStore } from "./checkpoint/memory/index.ts";
// Steering a live run and deciding when loops stop.
// The engine, for programs that lay out their own workspace.
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
  LoopStopContext,
  LoopStopPredicate,
  LoopStopVerdict,
  RunCommand,
  RunResult,
  SentinelHost,
  SentinelLoad,
} from "./engine/index.ts";
export { createEventSink, RESULT_TEXT_LIMIT, RunControl, runHank } from "./engine/index.ts";
export type {
  CodonEndReasons,
  DataOf,
  EndReason,
  EventOf,
  FailureReason,
  HankEvent,
  JournaledEvent,
  JournaledType,
  RunCommandType,
} from "./events/index.ts";
export { END_REASONS, EVENT_TYPES, HankEventSchema, JournaledEventSchema } from "./events/index.ts";

// How runs end, and the event vocabulary (journal format = wire format).
export type { RunOutcome } from "./events/run-outcome.ts";
export { exitCodeOf, RUN_OUTCOMES } from "./events/run-outcome.ts";
// Hank files: load, validate, plan.
export type { ValidationIssue } from "./hank/issues.ts";
export { formatJsonPath } from "./hank/issues.ts";
export { applyModelOverride, loadHankFile } from "./hank/load.ts";
export { type ResolvedModel, resolveModel } from "./hank/models/index.ts";
export type { Codon, CodonInput, HankFile, HankFileInput, TerminateOn } from "./hank/schema/index.ts";
export { HankFile as HankFileSchema } from "./hank/schema/index.ts";
export { type ValidationContext, type ValidationReport, validateHank } from "./hank/validate/index.ts";
export { createClaudeHarness } from "./harness/claude/index.ts";
export { createCommandHarness, createCommandHarnesses } from "./harness/command/index.ts";
// Harnesses: the contract, the registry and the built-in harnesses.
export type {
  Harness,
  HarnessEvent,
  HarnessRegistry,
  SessionOutcome,
  SessionRequest,
} from "./harness/harness.ts";
export type { HarnessContext, HarnessDescriptor } from "./harness/index.ts";
export { BUILTIN_HARNESSES, createHarnessRegistry, harnessFactories } from "./harness/index.ts";
export { createPiHarness } from "./harness/pi/index.ts";
export { createScriptedHarness } from "./harness/scripted/index.ts";
// The journal: append-only JSONL, late subscribers, the reducer that rebuilds run state.
export type {
  AsyncDelivery,
  CodonRecord,
  EventBus,
  EventBusOptions,
  OverflowNotice,
  RunState,
  Subscription,
} from "./journal/index.ts";
export {
  createEventBus,
  initialRunState,
  isOverflowNotice,
  JournalWriter,
  loadRunState,
  MemoryEventStore,
  readAll,
  readSince,
  readTail,
  reduce,
} from "./journal/index.ts";
export type {
  AfterCodonDecision,
  CodonFinish,
  ExecutionPlan,
  LoopStopRule,
  PlannedCodon,
} from "./plan/index.ts";
export { buildPlan, decideAfterCodon, LOOP_STOP_RULES, nextIteration } from "./plan/index.ts";
// Running hanks.
export type {
  ExecutionHandle,
  ExecutionOptions,
  ExecutionResult,
  LoadedHank,
  LoadHankInput,
  RunChannels,
  RunSinkInput,
  WorkspaceRun,
} from "./runner/index.ts";
export {
  createRunChannels,
  loadValidatedHank,
  openRunSink,
  runExecution,
  runWorkspace,
  startExecution,
} from "./runner/index.ts";
// Sentinels, for programs that drive runHank themselves (runWorkspace and runExecution add them).
export { createSentinelHost, type RunSentinels, type SentinelHostOptions } from "./sentinels/index.ts";

// Serving a run over WebSocket (docs/server.md), and a client of that protocol.
export type {
  ClientMode,
  CommandType,
  HankServer,
  HostEnd,
  LiveExecutionOptions,
  ProtocolClient,
  ServerFrame,
  ServerOptions,
} from "./server/index.ts";
export { connectClient, LiveExecution, setUpAccess, startServer } from "./server/index.ts";

// Time as a dependency.
export type { Clock, TimerHandle } from "./util/clock.ts";
export { systemClock } from "./util/clock.ts";

// Programmatic workflows: loop() and the single step, run(), over the same runtime.
export type {
  Agent,
  AgentTools,
  ArgumentIssue,
  DurableOptions,
  Lifetime,
  LoopEndCause,
  LoopOptions,
  LoopResult,
  Result,
  StepError,
  StepErrorKind,
  UntilPredicate,
  Usage,
  WorkflowBudget,
  WorkflowOptions,
  WorkflowResult,
} from "./workflows/index.ts";
export {
  AgentSchema,
  DEFAULT_MAX_ITERATIONS,
  loadAgent,
  loop,
  parseAgentMarkdown,
  run,
  WorkflowArgumentError,
} from "./workflows/index.ts";
