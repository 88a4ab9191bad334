import { z } from "zod";
import {
  AssistantActionData,
  FiletreeUpdatedData,
  FileUpdatedData,
  RigOutputData,
  RigSetupCompletedData,
  RigSetupFailedData,
  SentinelErrorData,
  SentinelLoadedData,
  SentinelOutputData,
  SentinelTriggeredData,
  SentinelUnloadedData,
  ToolResultData,
} from "./payloads-agentic.ts";
import { IsoTimestamp } from "./payloads-common.ts";
import { RunCommandData } from "./payloads-control.ts";
import {
  ArchiveCompletedData,
  ArchivePartialData,
  BudgetSummaryData,
  CheckpointListData,
  CodonCompletedData,
  CodonExtendedData,
  CodonStartedData,
  ErrorData,
  InfoData,
  LoopIterationCompletedData,
  RollbackArchiveRestoreData,
  RollbackCodonCheckpointData,
  RollbackCompletedData,
  RollbackProgressData,
  RollbackRigCleanupData,
  RollbackStartedData,
  ServerIdleData,
  StateSnapshotData,
  StateTransitionData,
  TokenUsageData,
} from "./payloads-server-state.ts";

/**
 * The event union: journal format, wire format and reducer input in one (DESIGN.md 3). Every event is
 * `{v, id, seq, timestamp, type, data}`: `id`, `timestamp`, `type` and `data` exactly as the reference
 * catalogue (reference 1.10); `v` is our record version; `seq` is the journal position (1, 2, ...).
 * Connection events are per client and never journaled, so they carry no `seq`.
 */

/** Version of the record envelope. Readers skip records of another version. */
export const RECORD_VERSION = 1;

function journaled<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.strictObject({
    v: z.literal(RECORD_VERSION),
    id: z.string().min(1),
    seq: z.int().positive(),
    timestamp: IsoTimestamp,
    type: z.literal(type),
    data,
  });
}

function perClient<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.strictObject({
    v: z.literal(RECORD_VERSION),
    id: z.string().min(1),
    timestamp: IsoTimestamp,
    type: z.literal(type),
    data,
  });
}

/** Every event that goes into `events.jsonl`. */
export const JournaledEventSchema = z.discriminatedUnion("type", [
  journaled("codon.started", CodonStartedData),
  journaled("codon.completed", CodonCompletedData),
  journaled("codon.extended", CodonExtendedData),
  journaled("state.snapshot", StateSnapshotData),
  journaled("server.idle", ServerIdleData),
  journaled("token.usage", TokenUsageData),
  journaled("info", InfoData),
  journaled("error", ErrorData),
  journaled("checkpoint.list", CheckpointListData),
  journaled("rollback.started", RollbackStartedData),
  journaled("rollback.progress", RollbackProgressData),
  journaled("rollback.codonCheckpoint", RollbackCodonCheckpointData),
  journaled("rollback.completed", RollbackCompletedData),
  journaled("rollback.rigCleanup", RollbackRigCleanupData),
  journaled("rollback.archiveRestore", RollbackArchiveRestoreData),
  journaled("state.transition", StateTransitionData),
  journaled("loop.iteration.completed", LoopIterationCompletedData),
  journaled("archive.completed", ArchiveCompletedData),
  journaled("archive.partial", ArchivePartialData),
  journaled("budget.summary", BudgetSummaryData),
  journaled("assistant.action", AssistantActionData),
  journaled("tool.result", ToolResultData),
  journaled("file.updated", FileUpdatedData),
  journaled("filetree.updated", FiletreeUpdatedData),
  journaled("rig.setup.completed", RigSetupCompletedData),
  journaled("rig.setup.failed", RigSetupFailedData),
  journaled("rig.output", RigOutputData),
  journaled("sentinel.loaded", SentinelLoadedData),
  journaled("sentinel.unloaded", SentinelUnloadedData),
  journaled("sentinel.error", SentinelErrorData),
  journaled("sentinel.output", SentinelOutputData),
  journaled("sentinel.triggered", SentinelTriggeredData),
  journaled("run.command", RunCommandData),
]);

export const ServerReadyData = z.strictObject({
  serverVersion: z.string(),
  executionPath: z.string(),
  agentRootPath: z.string(),
  dataPath: z.string(),
  port: z.int().nonnegative(),
  proxyPort: z.int().nonnegative().optional(),
  outputDirectory: z.string().optional(),
});

export const PongData = z.strictObject({
  message: z.string(),
  timestamp: z.string(),
  /** Only in answers to `ping.broadcast`. */
  clientId: z.string().optional(),
});

export const HistoryBatchData = z.strictObject({
  events: z.array(JournaledEventSchema),
  hasMore: z.boolean(),
});

export const IncompleteCodonData = z.strictObject({
  codonId: z.string(),
  codonName: z.string(),
  message: z.string(),
});

/** Every event: the journaled ones plus the per-client connection events. */
export const HankEventSchema = z.discriminatedUnion("type", [
  ...JournaledEventSchema.options,
  perClient("server.ready", ServerReadyData),
  perClient("pong", PongData),
  perClient("history.batch", HistoryBatchData),
  perClient("incomplete.codon", IncompleteCodonData),
]);

export type HankEvent = z.infer<typeof HankEventSchema>;
export type JournaledEvent = z.infer<typeof JournaledEventSchema>;
export type EventType = HankEvent["type"];
export type JournaledType = JournaledEvent["type"];
export type ConnectionType = Exclude<EventType, JournaledType>;
export type ConnectionEvent = Extract<HankEvent, { type: ConnectionType }>;
export type EventOf<T extends EventType> = Extract<HankEvent, { type: T }>;
export type DataOf<T extends EventType> = EventOf<T>["data"];

/** The four categories of reference 1.10; only `connection` events stay out of the journal. */
export type EventCategory = "server-state" | "agentic-backbone" | "sentinel" | "connection";

const CATEGORY_OF = {
  "codon.started": "server-state",
  "codon.completed": "server-state",
  "codon.extended": "server-state",
  "state.snapshot": "server-state",
  "server.idle": "server-state",
  "token.usage": "server-state",
  info: "server-state",
  error: "server-state",
  "checkpoint.list": "server-state",
  "rollback.started": "server-state",
  "rollback.progress": "server-state",
  "rollback.codonCheckpoint": "server-state",
  "rollback.completed": "server-state",
  "rollback.rigCleanup": "server-state",
  "rollback.archiveRestore": "server-state",
  "state.transition": "server-state",
  "loop.iteration.completed": "server-state",
  "archive.completed": "server-state",
  "archive.partial": "server-state",
  "budget.summary": "server-state",
  "assistant.action": "agentic-backbone",
  "tool.result": "agentic-backbone",
  "file.updated": "agentic-backbone",
  "filetree.updated": "agentic-backbone",
  "rig.setup.completed": "agentic-backbone",
  "rig.setup.failed": "agentic-backbone",
  "rig.output": "agentic-backbone",
  "sentinel.loaded": "sentinel",
  "sentinel.unloaded": "sentinel",
  "sentinel.error": "sentinel",
  "sentinel.output": "sentinel",
  "sentinel.triggered": "sentinel",
  "run.command": "server-state",
  "server.ready": "connection",
  pong: "connection",
  "history.batch": "connection",
  "incomplete.codon": "connection",
} as const satisfies Record<EventType, EventCategory>;

/** Every event type, in catalogue order. */
export const EVENT_TYPES = Object.keys(CATEGORY_OF) as EventType[];

export function category(type: EventType): EventCategory {
  return CATEGORY_OF[type];
}

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(CATEGORY_OF, type);
}

/** True for every known type but the connection events. Accepts any string (records read from disk). */
export function isJournaled(type: string): type is JournaledType {
  return isEventType(type) && CATEGORY_OF[type] !== "connection";
}
