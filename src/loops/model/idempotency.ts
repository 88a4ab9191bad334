/**
 * Idempotency keys: every unit of work carries a stable key, so a re-trigger never duplicates a side
 * effect. A run's key is given (`--idempotency-key`) or derived from the loop, its trigger and the
 * occurrence (a cron fire time, a watch tick); a generation's is the run key and its number; a fan-out
 * or watch item's is the run key and the item id. The body sees its key as `HANKWEAVE_LOOP_KEY`.
 */
import type { TriggerKind } from "../../events/loop-words.ts";

export type { TriggerKind } from "../../events/loop-words.ts";

export function runKey(loopId: string, trigger: TriggerKind, occurrence: string): string {
  return `${loopId}:${trigger}:${occurrence}`;
}

export function generationKey(runKeyValue: string, generation: number): string {
  return `${runKeyValue}#g${generation}`;
}

export function itemKey(runKeyValue: string, itemId: string): string {
  return `${runKeyValue}#item:${itemId}`;
}
