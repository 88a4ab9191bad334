import { undoesItsCodon } from "../../events/checkpoints.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import type { RunState } from "../../journal/index.ts";
import { codonIndex } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import { buildPlan, replayLoopReports } from "../../plan/index.ts";
import type { LineReport } from "./journal-line.ts";

/**
 * The codons a `rollback.completed {codonId, checkpointType}` undoes, in execution order: those after
 * the target codon, and the target too for `rig-setup`/`start`. Mirrors the journal reducer, which
 * drops exactly these records. Empty when the state does not know the codon.
 */
export function codonsUndone(state: RunState, codonId: string, checkpointType: string): string[] {
  const index = codonIndex(state, codonId);
  if (index === -1) return [];
  const keep = undoesItsCodon(checkpointType) ? index : index + 1;
  return state.codons.slice(keep).map((codon) => codon.id);
}

/**
 * The plan to continue from after a rollback: the hank's plan, with the loop reports of the codons
 * that remain replayed onto it (so loop iterations after the target are gone and later codons run
 * again). `undone` are the codons the rollback undid; `finished` the codons done afterwards.
 */
export function planAfterRollback(
  hank: HankFile,
  reports: readonly LineReport[],
  undone: readonly string[],
  finished: ReadonlySet<string>,
): ExecutionPlan {
  const dropped = new Set(undone);
  const kept = reports.filter((r) => r.producer === null || !dropped.has(r.producer)).map((r) => r.report);
  return replayLoopReports(buildPlan(hank), kept, finished);
}

/** Every `checkpointedFiles` glob of the hank, loops included, without repeats: the checkpoint selection. */
export function checkpointGlobsOf(hank: HankFile): string[] {
  const globs = new Set<string>();
  for (const item of hank.hank) {
    const codons = item.type === "loop" ? item.codons : [item];
    for (const codon of codons) for (const glob of codon.checkpointedFiles ?? []) globs.add(glob);
  }
  return [...globs];
}
