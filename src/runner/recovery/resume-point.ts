import { readJournalLine } from "../../engine/rollback/index.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import type { JournaledEvent, LoadedRunState, RunState } from "../../journal/index.ts";
import { finishedCodonIds, readSince, startsFresh } from "../../journal/index.ts";
import type { ExecutionPlan, LoopReport } from "../../plan/index.ts";
import {
  addNewTopLevelItems,
  buildPlan,
  isPlanFinished,
  loopReportOf,
  loopsWithChangedBody,
  nextIteration,
  parseExecutionPlan,
  reopenLoop,
  replayLoopReports,
  unresolvedEntries,
} from "../../plan/index.ts";

function isFreshStart(event: JournaledEvent): boolean {
  return (
    event.type === "state.transition" &&
    event.data.transitionType === "RunStarted" &&
    startsFresh(event.data.transition.data)
  );
}

/** Where a start picks up: a fresh plan, the saved plan caught up with the journal, or nothing to do. */
export type ResumePoint =
  | { readonly kind: "fresh"; readonly plan: ExecutionPlan }
  | { readonly kind: "continue"; readonly plan: ExecutionPlan }
  | { readonly kind: "done"; readonly plan: ExecutionPlan }
  | { readonly kind: "invalid"; readonly message: string };

/**
 * The plan to continue from. The snapshot's plan is consistent with the snapshot's run state; loop
 * reports journaled after it (a crash between the journal write and the snapshot) are replayed onto it.
 * Without a usable snapshot, or after a rollback the snapshot missed, the plan is rebuilt from the hank
 * and the loop reports of the journal's current line.
 */
async function recoverPlan(hank: HankFile, loaded: LoadedRunState, journalPath: string): Promise<unknown> {
  const reports: LoopReport[] = [];
  const saved = loaded.snapshot?.executionPlan;
  if (loaded.source === "snapshot+journal" && saved !== undefined && loaded.snapshot !== null) {
    const parsed = parseExecutionPlan(saved);
    if (!parsed.ok) return saved;
    const since = readSince(journalPath, loaded.snapshot.runState.lastSeq).events;
    // A rollback journaled after the snapshot rewrote the plan: rebuild it from the journal below.
    if (!since.some((event) => event.type === "rollback.completed" || isFreshStart(event))) {
      for (const event of since) {
        if (event.type === "loop.iteration.completed") reports.push(loopReportOf(event.data));
      }
      return replayLoopReports(parsed.plan, reports, finishedCodonIds(loaded.state));
    }
  }
  // The loop reports of the current line: a rollback drops those of the codons it undid.
  const line = await readJournalLine(journalPath);
  const onLine = line.reports.map((r) => r.report);
  return replayLoopReports(buildPlan(hank), onLine, finishedCodonIds(loaded.state));
}

/**
 * Decides from the journal's run state and the recovered plan. The plan is the authority on loop
 * progress; codons count as finished only when the journal says so.
 */
export async function resumePoint(
  hank: HankFile,
  state: RunState,
  loaded: LoadedRunState,
  journalPath: string,
): Promise<ResumePoint> {
  if (state.runs.length === 0) return { kind: "fresh", plan: buildPlan(hank) };
  const parsed = parseExecutionPlan(await recoverPlan(hank, loaded, journalPath));
  if (!parsed.ok)
    return { kind: "invalid", message: `The saved execution plan is unreadable: ${parsed.message}` };
  // A hank edited since (the change accepted): new top-level codons and loops join the plan.
  const carried = addNewTopLevelItems(hank, parsed.plan, finishedCodonIds(state));
  const missing = unresolvedEntries(hank, carried.entries);
  if (missing.length > 0) {
    return {
      kind: "invalid",
      message: `The hank no longer matches this execution (missing: ${missing.map((e) => e.runtimeId).join(", ")}). Use --start-new to run it fresh.`,
    };
  }
  const plan = continueRaisedLimits(hank, reopenUnfinishedLoops(hank, carried, state));
  const reshaped = loopsWithChangedBody(hank, plan);
  if (reshaped.length > 0) {
    return {
      kind: "invalid",
      message: `The body of loop ${reshaped.join(", ")} changed since this execution planned it (codons added, removed or moved); an execution keeps the loop body it planned. Restore the loop's codons, or use --start-new to run the edited hank fresh.`,
    };
  }
  if (isPlanFinished(plan, finishedCodonIds(state))) return { kind: "done", plan };
  return { kind: "continue", plan };
}

/**
 * The plan a continuation starts from: a loop that ended on a codon's failure, or at a codon a spent
 * run ceiling did not start, is reopened there; that codon runs again and the loop carries on (a
 * ceiling still spent starves it again). Every other end is final.
 */
export function reopenUnfinishedLoops(hank: HankFile, plan: ExecutionPlan, state: RunState): ExecutionPlan {
  let reopened = plan;
  const starvedLoops = loopsWithStarvedCodons(hank, state);
  for (const [loopId, status] of Object.entries(plan.loops)) {
    const starved = status.endCause === "budget" && starvedLoops.has(loopId);
    if (status.endCause === "failure" || starved) reopened = reopenLoop(reopened, loopId);
  }
  return reopened;
}

/** The loops whose latest codon record completed without starting (a spent run ceiling starved it). */
function loopsWithStarvedCodons(hank: HankFile, state: RunState): Set<string> {
  const loopOfCodon = new Map<string, string>();
  for (const item of hank.hank) {
    if (item.type === "loop") for (const codon of item.codons) loopOfCodon.set(codon.id, item.id);
  }
  const loops = new Set<string>();
  for (const record of state.codons) {
    if (record.notStarted === null) continue;
    const hash = record.id.lastIndexOf("#");
    const loopId = hash === -1 ? undefined : loopOfCodon.get(record.id.slice(0, hash));
    if (loopId !== undefined) loops.add(loopId);
  }
  return loops;
}

/**
 * A loop that ended at its iteration limit, in a hank whose limit has since been raised, carries on:
 * its next iteration is planned, so the resume runs it instead of finding nothing to do. Codons after
 * the loop that already ran are not run again.
 */
export function continueRaisedLimits(hank: HankFile, plan: ExecutionPlan): ExecutionPlan {
  let next = plan;
  for (const item of hank.hank) {
    if (item.type !== "loop" || item.terminateOn.type !== "iterationLimit") continue;
    const status = Object.hasOwn(next.loops, item.id) ? next.loops[item.id] : undefined;
    if (status?.terminated !== true || status.endCause !== "iteration_limit") continue;
    if (item.terminateOn.limit <= status.iteration + 1) continue;
    const reopened = {
      ...next,
      loops: { ...next.loops, [item.id]: { iteration: status.iteration, terminated: false } },
    };
    next = nextIteration(reopened, item.id);
  }
  return next;
}
