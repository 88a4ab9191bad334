import type { HankFile, Loop } from "../hank/schema/index.ts";
import { runtimeIdOf } from "../util/runtime-id.ts";
import type { ExecutionPlan, LoopStatus, PlannedCodon } from "./execution-plan.ts";
import { PLAN_VERSION } from "./execution-plan.ts";

/** The codons of one loop iteration, in body order. */
export function iterationEntries(loop: Loop, topIndex: number, iteration: number): PlannedCodon[] {
  const last = loop.codons.length - 1;
  return loop.codons.map((codon, position) => ({
    runtimeId: runtimeIdOf(codon.id, iteration),
    configId: codon.id,
    topIndex,
    loop: { loopId: loop.id, iteration, position, isLast: position === last },
  }));
}

/**
 * Flattens a hank into its initial plan: top-level codons as they are, each loop as its iteration 0
 * only (later iterations are spliced in by `nextIteration` once the previous one ends). Every loop gets
 * a status record, not terminated. Expects a validated hank (unique ids, non-empty loop bodies).
 */
export function buildPlan(hank: HankFile): ExecutionPlan {
  const entries: PlannedCodon[] = [];
  const loops: Record<string, LoopStatus> = {};
  hank.hank.forEach((item, topIndex) => {
    if (item.type === "loop") {
      entries.push(...iterationEntries(item, topIndex, 0));
      loops[item.id] = { iteration: 0, terminated: false };
    } else {
      entries.push({ runtimeId: item.id, configId: item.id, topIndex });
    }
  });
  return { version: PLAN_VERSION, entries, loops };
}
