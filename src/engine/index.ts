/**
 * The engine: drives a validated hank to its end with injected harnesses, clock, journal and workspace
 * hooks. Decisions are pure functions (plan, budget, failure policy); this folder performs them.
 */
export type { Clock, TimerHandle } from "./clock.ts";
export { sleep, systemClock } from "./clock.ts";
export type {
  CodonContext,
  EngineDeps,
  EngineHooks,
  EngineInput,
  EngineOptions,
  HookResult,
  RunResult,
} from "./engine-types.ts";
export type { EventDraftOf, EventListener, EventSink, EventStore } from "./event-sink.ts";
export { createEventSink } from "./event-sink.ts";
export * from "./rollback/index.ts";
export { runHank } from "./run-hank.ts";
export { sessionModelOf } from "./session-model.ts";
