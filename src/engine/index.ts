/**
 * The engine: drives a validated hank to its end with injected harnesses, clock, journal and workspace
 * hooks. Decisions are pure functions (plan, budget, failure policy); this folder performs them.
 */
export type { Clock, TimerHandle } from "../util/clock.ts";
export { sleep, systemClock } from "../util/clock.ts";
export type { CodonResult, CodonUsage } from "./codon/codon-result.ts";
export { RESULT_TEXT_LIMIT } from "./codon/codon-result.ts";
export type {
  CodonContext,
  EngineDeps,
  EngineHooks,
  EngineInput,
  EngineOptions,
  HookResult,
  RunResult,
  SentinelHost,
  SentinelLoad,
} from "./engine-types.ts";
export type {
  LoopStopContext,
  LoopStopPredicate,
  LoopStopVerdict,
} from "./loop/loop-stop-predicate.ts";
export * from "./rollback/index.ts";
export type { EventDraftOf, EventListener, EventSink, EventStore } from "./run/event-sink.ts";
export { createEventSink } from "./run/event-sink.ts";
export type { InboxCommand, RunCommand } from "./run/run-control.ts";
export { RunControl } from "./run/run-control.ts";
export { runHank } from "./run/run-hank.ts";
export { sessionModelOf } from "./session/session-model.ts";
