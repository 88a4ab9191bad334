import { runtimeIdOf } from "../util/runtime-id.ts";
import type { ExecutionPlan, PlannedCodon } from "./execution-plan.ts";
import { loopStatus, withLoopStatus } from "./loop-status.ts";

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
 *
 * Cost: one copy of the entries array (a native splice) plus the entries outside the loop's block; the
 * loop's own earlier iterations are not visited, so expanding the 10,000th iteration costs about what
 * the first did.
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
  const start = blockStart(plan, loopId, lastIndex, (status.iteration + 1) * body.length);
  const addedIds = new Set(added.map((entry) => entry.runtimeId));
  const clash = clashOutside(plan.entries, start, lastIndex, addedIds);
  if (clash !== undefined) throw new Error(`Duplicate codon IDs after loop expansion: ${clash.runtimeId}`);
  const entries = plan.entries.toSpliced(lastIndex + 1, 0, ...added);
  return withLoopStatus({ ...plan, entries }, loopId, { iteration: next, terminated: false });
}

/**
 * Where the loop's block starts: a running loop holds whole iterations 0..N, so the block is
 * `(N + 1) × body` entries ending at `lastIndex`. Runtime ids inside it are `<id>#<k>` with k ≤ N, so
 * they cannot clash with iteration N+1 and need no check. When the plan does not have that shape, the
 * block is taken as empty (`lastIndex + 1`), so every entry is checked: slower, always correct.
 */
function blockStart(plan: ExecutionPlan, loopId: string, lastIndex: number, length: number): number {
  const start = lastIndex + 1 - length;
  const first = plan.entries[start]?.loop;
  const before = plan.entries[start - 1]?.loop;
  const shaped = first?.loopId === loopId && first.iteration === 0 && first.position === 0;
  return shaped && before?.loopId !== loopId ? start : lastIndex + 1;
}

/** The first entry outside the block `[start, lastIndex]` whose runtime id is in `ids`. */
function clashOutside(
  entries: readonly PlannedCodon[],
  start: number,
  lastIndex: number,
  ids: ReadonlySet<string>,
): PlannedCodon | undefined {
  const clashes = (entry: PlannedCodon | undefined): boolean =>
    entry !== undefined && ids.has(entry.runtimeId);
  for (let index = 0; index < start; index += 1) if (clashes(entries[index])) return entries[index];
  for (let index = lastIndex + 1; index < entries.length; index += 1)
    if (clashes(entries[index])) return entries[index];
  return undefined;
}
