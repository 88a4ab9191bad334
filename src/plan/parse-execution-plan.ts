import { z } from "zod";
import type { ExecutionPlan, LoopStatus, PlannedCodon } from "./execution-plan.ts";
import { PLAN_VERSION } from "./execution-plan.ts";
import { eventTerminationReason, LOOP_END_CAUSES, LOOP_TERMINATION_REASONS } from "./loop-end-cause.ts";

const Count = z.int().min(0);

const PlannedCodonSchema = z.strictObject({
  runtimeId: z.string().min(1),
  configId: z.string().min(1),
  topIndex: Count,
  loop: z
    .strictObject({ loopId: z.string().min(1), iteration: Count, position: Count, isLast: z.boolean() })
    .optional(),
});

const LoopStatusSchema = z.strictObject({
  iteration: Count,
  terminated: z.boolean(),
  endCause: z.enum(LOOP_END_CAUSES).optional(),
  terminationReason: z.enum(LOOP_TERMINATION_REASONS).optional(),
});

/** The persisted shape of an execution plan (`state.json` `executionPlan`). */
export const ExecutionPlanSchema = z.strictObject({
  version: z.literal(PLAN_VERSION),
  entries: z.array(PlannedCodonSchema),
  loops: z.record(z.string(), LoopStatusSchema),
});

export type ParsedPlan = { ok: true; plan: ExecutionPlan } | { ok: false; message: string };

function toEntry(raw: z.infer<typeof PlannedCodonSchema>): PlannedCodon {
  const entry = { runtimeId: raw.runtimeId, configId: raw.configId, topIndex: raw.topIndex };
  return raw.loop === undefined ? entry : { ...entry, loop: raw.loop };
}

/** The stored `terminationReason` is derived again from `endCause`, so the two cannot disagree. */
function toStatus(raw: z.infer<typeof LoopStatusSchema>): LoopStatus {
  const status = { iteration: raw.iteration, terminated: raw.terminated };
  if (raw.endCause === undefined) return status;
  const reason = eventTerminationReason(raw.endCause);
  return reason === undefined
    ? { ...status, endCause: raw.endCause }
    : { ...status, endCause: raw.endCause, terminationReason: reason };
}

function duplicateRuntimeId(entries: readonly PlannedCodon[]): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.runtimeId)) return entry.runtimeId;
    seen.add(entry.runtimeId);
  }
  return undefined;
}

/**
 * Reads a persisted plan back. Checks the shape, that runtime ids are unique, that a loop has an end
 * cause exactly when it has terminated, and that every loop codon names a loop with a status record.
 * Never throws.
 */
export function parseExecutionPlan(raw: unknown): ParsedPlan {
  const parsed = ExecutionPlanSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, message: `Invalid execution plan: ${z.prettifyError(parsed.error)}` };
  }
  const entries = parsed.data.entries.map(toEntry);
  const loops: Record<string, LoopStatus> = {};
  for (const [loopId, status] of Object.entries(parsed.data.loops)) {
    if (status.terminated !== (status.endCause !== undefined)) {
      return {
        ok: false,
        message: `Invalid execution plan: loop "${loopId}" must have an endCause exactly when it has terminated`,
      };
    }
    loops[loopId] = toStatus(status);
  }
  const duplicate = duplicateRuntimeId(entries);
  if (duplicate !== undefined) {
    return { ok: false, message: `Invalid execution plan: duplicate runtime id "${duplicate}"` };
  }
  const orphan = entries.find(
    (entry) => entry.loop !== undefined && !Object.hasOwn(loops, entry.loop.loopId),
  );
  if (orphan !== undefined) {
    return {
      ok: false,
      message: `Invalid execution plan: "${orphan.runtimeId}" names a loop without a status`,
    };
  }
  return { ok: true, plan: { version: PLAN_VERSION, entries, loops } };
}
