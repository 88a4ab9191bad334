import type { CheckpointRecord } from "../../checkpoint/index.ts";
import { parseRuntimeId } from "../../plan/index.ts";
import type { RollbackCheckpointType, RollbackFailure, RollbackTarget } from "./rollback-types.ts";

/** Where a rollback goes: the checkpoint to restore and what the rollback events record. */
export interface ResolvedTarget {
  readonly ok: true;
  readonly record: CheckpointRecord;
  /** The codon named in the events: for `start`, the codon that runs again. */
  readonly codonId: string;
  readonly codonName: string;
  /** `rig-setup` and `start` undo the codon itself; the other types keep it. */
  readonly checkpointType: string;
}

export interface TargetContext {
  /** The current line, oldest first (`checkpointThread`). */
  readonly thread: readonly CheckpointRecord[];
  /** Every checkpoint of the store, for prefixes that name one off the line. */
  readonly all: readonly CheckpointRecord[];
}

const HEX_ID = /^[0-9a-f]{4,64}$/;

/** Picks the checkpoint a target names on the current line; every refusal says why. Pure. */
export function resolveRollbackTarget(
  target: RollbackTarget,
  context: TargetContext,
): ResolvedTarget | RollbackFailure {
  switch (target.kind) {
    case "checkpoint":
      return bySha(target.sha, context);
    case "codon":
      return byCodon(target.codonId, target.checkpointType, context.thread);
    case "last-success":
      return lastSuccess(context.thread);
    case "named":
      return byName(target.name, context);
  }
}

function bySha(text: string, context: TargetContext): ResolvedTarget | RollbackFailure {
  const prefix = text.toLowerCase();
  if (!HEX_ID.test(prefix)) {
    return failure("bad-target", `"${text}" is not a checkpoint id: give at least 4 of its hex digits.`);
  }
  const matches = context.all.filter((record) => record.sha.startsWith(prefix));
  const [only, ...others] = matches;
  if (only === undefined) return failure("unknown-target", `No checkpoint matches "${text}".`);
  if (others.length > 0) {
    return {
      ...failure(
        "ambiguous-target",
        `Checkpoint prefix "${text}" is ambiguous: it matches ${matches.length} checkpoints:\n${matches.map(describeCheckpoint).join("\n")}\nGive more digits.`,
      ),
      candidates: matches,
    };
  }
  if (!context.thread.some((record) => record.sha === only.sha)) {
    return failure(
      "off-line",
      `Checkpoint ${describeCheckpoint(only).trim()} is not on the current line of this execution: a later rollback abandoned it.`,
    );
  }
  return resolved(only, only.codonId, only.checkpointType);
}

function byCodon(
  codonId: string,
  type: RollbackCheckpointType,
  thread: readonly CheckpointRecord[],
): ResolvedTarget | RollbackFailure {
  const runtimeId = runtimeIdOn(codonId, thread);
  if (runtimeId === undefined) {
    const known = [...new Set(thread.map((record) => record.codonId))];
    const list = known.length === 0 ? "none" : known.join(", ");
    return failure(
      "unknown-target",
      `Codon "${codonId}" has no checkpoint on the current line (codons with checkpoints: ${list}).`,
    );
  }
  const own = thread.filter((record) => record.codonId === runtimeId);
  if (type === "start") return startOf(runtimeId, own, thread);
  const pick = type === "end" ? own.at(-1) : own.filter((record) => record.checkpointType === type).at(-1);
  if (pick === undefined) {
    const types = [...new Set(own.map((record) => record.checkpointType))].join(", ");
    return failure(
      "unknown-target",
      `Codon ${runtimeId} has no ${type} checkpoint on the current line (it has: ${types}).`,
    );
  }
  return resolved(pick, runtimeId, pick.checkpointType);
}

/**
 * The state before the codon first ran on this line: its earliest rig-setup checkpoint, else the
 * checkpoint just before its first one (the previous codon's last). A codon whose first checkpoint opens
 * the line has nothing before it to return to.
 */
function startOf(
  runtimeId: string,
  own: readonly CheckpointRecord[],
  thread: readonly CheckpointRecord[],
): ResolvedTarget | RollbackFailure {
  const rig = own.find((record) => record.checkpointType === "rig-setup");
  if (rig !== undefined) return resolved(rig, runtimeId, "rig-setup", rig.codonName);
  const first = own[0];
  const before = first === undefined ? undefined : thread[thread.indexOf(first) - 1];
  if (first === undefined || before === undefined) {
    return failure(
      "unknown-target",
      `Codon ${runtimeId} opens the current line and has no rig-setup checkpoint: there is no checkpoint before it. Start the execution anew instead.`,
    );
  }
  return resolved(before, runtimeId, "start", first.codonName);
}

function lastSuccess(thread: readonly CheckpointRecord[]): ResolvedTarget | RollbackFailure {
  const last = thread.filter((record) => record.checkpointType === "completed").at(-1);
  if (last === undefined) {
    return failure(
      "unknown-target",
      "No codon has completed on the current line: there is no success to roll back to.",
    );
  }
  return resolved(last, last.codonId, "completed");
}

function byName(name: string, context: TargetContext): ResolvedTarget | RollbackFailure {
  if (name === "last-success") return lastSuccess(context.thread);
  const prefix = name.toLowerCase();
  const shaMatches = HEX_ID.test(prefix) && context.all.some((record) => record.sha.startsWith(prefix));
  const codonMatch = runtimeIdOn(name, context.thread) !== undefined;
  if (shaMatches && codonMatch) {
    return failure(
      "ambiguous-target",
      `"${name}" names both a checkpoint and a codon: give the codon with a checkpoint type, or more digits of the checkpoint id.`,
    );
  }
  if (codonMatch) return byCodon(name, "completed", context.thread);
  return HEX_ID.test(prefix) ? bySha(name, context) : byCodon(name, "completed", context.thread);
}

/** A runtime id as given, or a config id resolved to its latest execution on the line. */
function runtimeIdOn(codonId: string, thread: readonly CheckpointRecord[]): string | undefined {
  if (thread.some((record) => record.codonId === codonId)) return codonId;
  return thread.filter((record) => parseRuntimeId(record.codonId).configId === codonId).at(-1)?.codonId;
}

/** `  abc1234  review#1 completed  run run-2  2025-01-01T00:00:00.000Z`: one candidate line. */
export function describeCheckpoint(record: CheckpointRecord): string {
  return `  ${record.sha.slice(0, 7)}  ${record.codonId} ${record.checkpointType}  run ${record.runId}  ${record.timestamp}`;
}

function resolved(
  record: CheckpointRecord,
  codonId: string,
  checkpointType: string,
  codonName: string = record.codonName,
): ResolvedTarget {
  return { ok: true, record, codonId, codonName, checkpointType };
}

function failure(code: RollbackFailure["code"], message: string): RollbackFailure {
  return { ok: false, code, message };
}
