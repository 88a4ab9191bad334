import type { ExecutionPlan, PlannedCodon } from "./execution-plan.ts";
import { loopStatus, withLoopStatus } from "./loop-status.ts";
import { runtimeIdOf } from "./runtime-id.ts";

/**
 * Indexes, in plan order, of the entries of one loop iteration. A loop's iterations sit in one block,
 * in order, so the scan runs backwards and stops below the iteration: the loop's latest iteration (the
 * one asked for after every iteration) costs its body, not the whole history of the loop.
 */
export function iterationIndexes(plan: ExecutionPlan, loopId: string, iteration: number): number[] {
  const indexes: number[] = [];
  for (let index = plan.entries.length - 1; index >= 0; index -= 1) {
    const loop = plan.entries[index]?.loop;
    if (loop?.loopId !== loopId) continue;
    if (loop.iteration === iteration) indexes.push(index);
    else if (loop.iteration < iteration) break;
  }
  return indexes.reverse();
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
  const addedIds = new Set(added.map((entry) => entry.runtimeId));
  const clash = plan.entries.find((entry) => addedIds.has(entry.runtimeId));
  if (clash !== undefined) throw new Error(`Duplicate codon IDs after loop expansion: ${clash.runtimeId}`);
  const entries = [...plan.entries.slice(0, lastIndex + 1), ...added, ...plan.entries.slice(lastIndex + 1)];
  return withLoopStatus({ ...plan, entries }, loopId, { iteration: next, terminated: false });
}
