import type { HankFile, Loop } from "../hank/schema/index.ts";
import { iterationEntries } from "./build-plan.ts";
import type { ExecutionPlan, LoopStatus, PlannedCodon } from "./execution-plan.ts";
import { iterationIndexes } from "./next-iteration.ts";

/** The top-level item a planned entry belongs to: its loop, or the codon itself. */
function topIdOf(entry: PlannedCodon): string {
  return entry.loop?.loopId ?? entry.configId;
}

/**
 * A saved plan carried onto the hank as it is now (a hank edited between runs, the change accepted):
 * - every entry's `topIndex` follows its item to wherever the edit moved it;
 * - top-level codons and loops the plan has never seen are planned in the hank's order (a loop at its
 *   first iteration), so the continuation runs them;
 * - a loop none of whose codons has finished is planned again from its body in the hank.
 * What the plan holds is otherwise kept: finished codons stay finished, and a loop that has started
 * keeps the body it planned (see `loopsWithChangedBody`); a removed codon is left for
 * `unresolvedEntries` to report. Returns `plan` itself when the hank changed nothing it holds.
 */
export function addNewTopLevelItems(
  hank: HankFile,
  plan: ExecutionPlan,
  finished: ReadonlySet<string>,
): ExecutionPlan {
  const indexOf = new Map(hank.hank.map((item, index) => [item.id, index]));
  let changed = false;
  let entries = plan.entries.map((entry) => {
    const index = indexOf.get(topIdOf(entry));
    if (index === undefined || index === entry.topIndex) return entry;
    changed = true;
    return { ...entry, topIndex: index };
  });
  const known = new Set([...entries.map(topIdOf), ...Object.keys(plan.loops)]);
  const loops: Record<string, LoopStatus> = { ...plan.loops };
  hank.hank.forEach((item, index) => {
    const replan = item.type === "loop" && known.has(item.id) && unstarted(item, entries, finished);
    if (known.has(item.id) && !replan) return;
    if (replan) entries = entries.filter((entry) => entry.loop?.loopId !== item.id);
    changed = true;
    const planned =
      item.type === "loop"
        ? iterationEntries(item, index, 0)
        : [{ runtimeId: item.id, configId: item.id, topIndex: index }];
    if (item.type === "loop") loops[item.id] = { iteration: 0, terminated: false };
    const before = entries.findIndex((entry) => entry.topIndex > index);
    entries.splice(before < 0 ? entries.length : before, 0, ...planned);
  });
  return changed ? { ...plan, entries, loops } : plan;
}

/** A planned loop none of whose codons has finished, and whose planned body is not the hank's. */
function unstarted(loop: Loop, entries: readonly PlannedCodon[], finished: ReadonlySet<string>): boolean {
  const own = entries.filter((entry) => entry.loop?.loopId === loop.id);
  if (own.some((entry) => finished.has(entry.runtimeId))) return false;
  return own.map((entry) => entry.configId).join("\n") !== loop.codons.map((codon) => codon.id).join("\n");
}

/**
 * The loops that will run again (not terminated) whose body in the hank is no longer the body their
 * current iteration was planned with: codon ids at other positions, or codons added or removed. The
 * next iteration is copied from the current one, so such an edit would be ignored, or break the
 * iteration; the resume refuses instead.
 */
export function loopsWithChangedBody(hank: HankFile, plan: ExecutionPlan): string[] {
  const changed: string[] = [];
  for (const item of hank.hank) {
    if (item.type !== "loop") continue;
    const status = Object.hasOwn(plan.loops, item.id) ? plan.loops[item.id] : undefined;
    if (status === undefined || status.terminated) continue;
    const planned = iterationIndexes(plan, item.id, status.iteration).map(
      (index) => plan.entries[index]?.configId,
    );
    if (planned.join("\n") !== item.codons.map((codon) => codon.id).join("\n")) changed.push(item.id);
  }
  return changed;
}
