/**
 * hankweave as a library: what docs/library.md teaches. Run a hank for real (`runExecution`, the way
 * the CLI does), steer it, decide when its loops stop, read how it went (the run view every face
 * shows), validate hank files, write programmatic workflows (`loop()`, `run()`), and serve a run.
 * Every export is named on purpose. Advanced pieces live under subpaths: `hankweave/engine` (the
 * engine and the runner's composition), `hankweave/harnesses`, `hankweave/checkpoints`,
 * `hankweave/protocol` (clients of the WebSocket protocol) and `hankweave/testing` (the test kit).
 */

// Running and steering a hank.
export type { LoopStopContext, LoopStopPredicate, LoopStopVerdict, RunCommand } from "./engine/index.ts";
// How runs end, and the event vocabulary (journal format = wire format).
export type {
  CodonEndReasons,
  DataOf,
  EndReason,
  EventOf,
  FailureReason,
  HankEvent,
  JournaledEvent,
} from "./events/index.ts";
export { EVENT_TYPES, JournaledEventSchema } from "./events/index.ts";
export type { RefusalCode } from "./events/refusals.ts";
export type { RunOutcome } from "./events/run-outcome.ts";
export { exitCodeOf, RUN_OUTCOMES } from "./events/run-outcome.ts";
// Hank files.
export type { ValidationIssue } from "./hank/issues.ts";
export { loadHankFile } from "./hank/load.ts";
export type { HankFile } from "./hank/schema/index.ts";
export { HankFile as HankFileSchema } from "./hank/schema/index.ts";
export { type ValidationReport, validateHank } from "./hank/validate/index.ts";
// Reading a run: the journal, and the run view every face shows (counts, outcome, codon rows).
export type { CodonRecord, RunState } from "./journal/index.ts";
export { readAll, readSince, readTail } from "./journal/index.ts";
export type { RunCounts } from "./journal/run-counts.ts";
export { type RunEnding, type RunView, RunViewFold, viewOf } from "./journal/run-view.ts";
export type { TracingOptions } from "./observability/index.ts";
export type { ExecutionHandle, ExecutionOptions, ExecutionResult } from "./runner/index.ts";
export { loadValidatedHank, runExecution, startExecution } from "./runner/index.ts";

// Serving a run over WebSocket (docs/server.md).
export type { ClientMode, HankServer, ServerOptions } from "./server/index.ts";
export { LiveExecution, setUpAccess, startServer } from "./server/index.ts";

// Time as a dependency.
export { type Clock, systemClock } from "./util/clock.ts";

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
