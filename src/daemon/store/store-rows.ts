import type { Selectable } from "kysely";
import type {
  Effect,
  GenerationRecord,
  LoopRunRecord,
  NewRun,
  StoredCommand,
  StoredMessage,
} from "../../loops/store/store-records.ts";
import type { StoreDatabase } from "./store-tables.ts";

/** Mapping between store records and table rows; JSON columns are parsed here and nowhere else. */

type RunRow = Selectable<StoreDatabase["loop_runs"]>;

export function runFromRow(row: RunRow): LoopRunRecord {
  return {
    id: row.id,
    loopId: row.loop_id,
    key: row.run_key,
    trigger: row.trigger_kind as LoopRunRecord["trigger"],
    state: row.state as LoopRunRecord["state"],
    cause: row.cause as LoopRunRecord["cause"],
    parkReason: row.park_reason as LoopRunRecord["parkReason"],
    pausedFrom: row.paused_from as LoopRunRecord["pausedFrom"],
    contract: JSON.parse(row.contract),
    meters: JSON.parse(row.meters),
    amendments: JSON.parse(row.amendments),
    dir: row.dir,
    createdAt: row.created_at,
    stateSince: row.state_since,
    endedAt: row.ended_at,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
    fencingToken: Number(row.fencing_token),
  };
}

export function runToRow(run: NewRun, state: string, at: string): RunRow {
  return {
    id: run.id,
    loop_id: run.loopId,
    run_key: run.key,
    trigger_kind: run.trigger,
    state,
    cause: null,
    park_reason: null,
    paused_from: null,
    contract: JSON.stringify(run.contract),
    meters: JSON.stringify(run.meters),
    amendments: JSON.stringify(run.amendments),
    dir: run.dir,
    created_at: run.createdAt,
    state_since: at,
    ended_at: null,
    lease_owner: null,
    lease_expires_at: null,
    fencing_token: 0,
  };
}

type GenerationRow = Selectable<StoreDatabase["loop_generations"]>;

export function generationFromRow(row: GenerationRow): GenerationRecord {
  return {
    runId: row.run_id,
    number: Number(row.number),
    key: row.gen_key,
    state: row.state as GenerationRecord["state"],
    facts: JSON.parse(row.facts),
    layers: JSON.parse(row.layers),
    bodyRunId: row.body_run_id,
    workspaceTree: row.workspace_tree,
    tokens: row.tokens === null ? null : Number(row.tokens),
    costUsd: row.cost_usd,
    readMessages: JSON.parse(row.read_messages),
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export function generationToRow(record: GenerationRecord): GenerationRow {
  return {
    run_id: record.runId,
    number: record.number,
    gen_key: record.key,
    state: record.state,
    facts: JSON.stringify(record.facts),
    layers: JSON.stringify(record.layers),
    body_run_id: record.bodyRunId,
    workspace_tree: record.workspaceTree,
    tokens: record.tokens,
    cost_usd: record.costUsd,
    read_messages: JSON.stringify(record.readMessages),
    started_at: record.startedAt,
    ended_at: record.endedAt,
  };
}

export function messageFromRow(row: Selectable<StoreDatabase["loop_messages"]>): StoredMessage {
  return {
    id: Number(row.id),
    runId: row.run_id,
    kind: row.kind as StoredMessage["kind"],
    author: row.author,
    text: row.text,
    createdAt: row.created_at,
    readByGeneration: row.read_by_generation === null ? null : Number(row.read_by_generation),
  };
}

export function commandFromRow(row: Selectable<StoreDatabase["loop_commands"]>): StoredCommand {
  const payload = JSON.parse(row.payload) as Omit<
    StoredCommand,
    "id" | "runId" | "type" | "createdAt" | "settledAt" | "outcome"
  >;
  return {
    ...payload,
    id: Number(row.id),
    runId: row.run_id,
    type: row.type as StoredCommand["type"],
    createdAt: row.created_at,
    settledAt: row.settled_at,
    outcome: row.outcome,
  };
}

export function effectFromRow(row: Selectable<StoreDatabase["loop_effects"]>): Effect {
  return {
    id: Number(row.id),
    deliveryId: row.delivery_id,
    runId: row.run_id,
    kind: row.kind as Effect["kind"],
    payload: JSON.parse(row.payload),
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    attempts: Number(row.attempts),
  };
}
