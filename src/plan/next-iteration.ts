import type { ExecutionPlan, PlannedCodon } from "./execution-plan.ts";
import { loopStatus, withLoopStatus } from "./loop-status.ts";
import { runtimeIdOf } from "./runtime-id.ts";

/** Indexes, in plan order, of the entries of one loop iteration. */
export function iterationIndexes(plan: ExecutionPlan, loopId: string, iteration: number): number[] {
  const indexes: number[] = [];
  plan.entries.forEach((entry, index) => {
    if (entry.loop?.loopId === loopId && entry.loop.iteration === iteration) indexes.push(index);
  });
  return indexes;
}

function copyForIteration(entry: PlannedCodon, iteration: number): PlannedCodon {
  if (entry.loop === undefined) throw new Error(`"${entry.runtimeId}" is not a loop codon`);
  return {
    runtimeId: runtimeIdOf(entry.configId, iteration),
    configId: entry.configId,
    topIndex: entry.topIndex,
    loop: { ...entry.loop, iteration },
  };
}

/**
 * Splices iteration N+1 of a loop right after the last codon of iteration N, where N is the loop's
 * current iteration. The body is copied from iteration N, which is whole in the plan because only a
 * terminated loop loses codons. Expanding a terminated loop, a cut iteration, or creating a runtime id
 * that already exists are bugs and throw.
 */
export function nextIteration(plan: ExecutionPlan, loopId: string): ExecutionPlan {
  const status = loopStatus(plan, loopId);
  if (status.terminated) throw new Error(`Loop "${loopId}" has terminated; no further iteration`);
  const indexes = iterationIndexes(plan, loopId, status.iteration);
  const body = indexes.map((index) => plan.entries[index]).filter((entry) => entry !== undefined);
  const whole = body.length > 0 && body.every((entry, position) => entry.loop?.position === position);
  const lastIndex = indexes[indexes.length - 1];
  if (!whole || lastIndex === undefined || body[body.length - 1]?.loop?.isLast !== true) {
    throw new Error(`Loop "${loopId}" iteration ${status.iteration} is not whole in the plan`);
  }
  const next = status.iteration + 1;
  const added = body.map((entry) => copyForIteration(entry, next));
  const taken = new Set(plan.entries.map((entry) => entry.runtimeId));
  const clash = added.find((entry) => taken.has(entry.runtimeId));
  if (clash !== undefined) throw new Error(`Duplicate codon IDs after loop expansion: ${clash.runtimeId}`);
  const entries = [...plan.entries.slice(0, lastIndex + 1), ...added, ...plan.entries.slice(lastIndex + 1)];
  return withLoopStatus({ ...plan, entries }, loopId, { iteration: next, terminated: false });
}
