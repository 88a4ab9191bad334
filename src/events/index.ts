/**
 * The bottom layer's event vocabulary: one zod union that is the journal format, the wire format and
 * the reducer's input, with its payloads and shared building blocks. Imports nothing of ours.
 */
export type {
  ConnectionEvent,
  ConnectionType,
  DataOf,
  EventCategory,
  EventOf,
  EventType,
  HankEvent,
  JournaledEvent,
  JournaledType,
} from "./events.ts";
export {
  category,
  EVENT_TYPES,
  HankEventSchema,
  isEventType,
  isJournaled,
  JournaledEventSchema,
  RECORD_VERSION,
} from "./events.ts";
export type {
  ActiveCodonStatus,
  BudgetCurrency,
  BudgetExceeded,
  CodonEndReasons,
  CodonStatus,
  EndReason,
  ExitStatus,
  FailureReason,
  FailureType,
  FileNode,
  LoopTerminationReason,
  TokenUsage,
} from "./payloads-common.ts";
export {
  CODON_STATUSES,
  END_REASONS,
  FAILURE_TYPES,
  isTerminalCodonStatus,
  LOOP_TERMINATION_REASONS,
} from "./payloads-common.ts";
export type { RunCommandType } from "./payloads-control.ts";
export { RUN_COMMANDS } from "./payloads-control.ts";
export type { CheckpointType, TransitionType } from "./payloads-server-state.ts";
export { TRANSITION_TYPES } from "./payloads-server-state.ts";
export { PlanSize, planSizeOf } from "./plan-size.ts";
