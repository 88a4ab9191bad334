import type { ExecutionPlan, PlannedCodon } from "../../plan/index.ts";
import { findPrevious } from "../../plan/index.ts";
import type { ResumeTarget } from "../codon/attempt-end.ts";
import type { EventSink } from "../run/event-sink.ts";

export interface ResumeQuery {
  readonly plan: ExecutionPlan;
  readonly entry: PlannedCodon;
  /** The entry before `entry` when the driver knows it (the cursor), to avoid a scan. */
  readonly previousHint?: PlannedCodon | undefined;
  readonly sink: EventSink;
  readonly exhaustedSessions: ReadonlySet<string>;
}

/**
 * `continue-previous`: the session of the planned codon before this one, unless there is none or its
 * context is used up. A first codon has no previous session: it starts fresh (what the validator
 * promises), which is not a problem.
 */
export function previousSession(query: ResumeQuery): ResumeTarget | undefined {
  const { entry } = query;
  const previous = query.previousHint ?? findPrevious(query.plan, entry.runtimeId);
  if (previous === undefined) return undefined;
  return sessionOf(query, previous);
}

/**
 * A loop codon that keeps its session across iterations: the session of the latest earlier codon of
 * the same loop in its session group (`group` maps a config id to its group; a codon alone in its
 * group resumes itself of the previous iteration). Two steps of one agent share one session, each
 * resuming where the other left it. The first codon of a group starts fresh.
 */
export function ownPreviousSession(
  query: ResumeQuery,
  group: ReadonlyMap<string, string>,
): ResumeTarget | undefined {
  const placement = query.entry.loop;
  if (placement === undefined) return undefined;
  const mine = group.get(query.entry.configId);
  const index = query.plan.entries.findIndex((candidate) => candidate.runtimeId === query.entry.runtimeId);
  const earlier = query.plan.entries
    .slice(0, Math.max(0, index))
    .findLast(
      (candidate) => candidate.loop?.loopId === placement.loopId && group.get(candidate.configId) === mine,
    );
  if (earlier === undefined) return undefined;
  return sessionOf(query, earlier);
}

function sessionOf(query: ResumeQuery, source: PlannedCodon): ResumeTarget {
  const id = query.entry.runtimeId;
  const from = source.runtimeId;
  const sessionId = query.sink.codon(from)?.sessionId ?? null;
  if (sessionId === null) return { problem: `Codon ${id} continues ${from}, which has no session to resume` };
  if (query.exhaustedSessions.has(sessionId)) {
    return { problem: `Codon ${id} cannot continue ${from}: that session's context is exhausted` };
  }
  return { sessionId };
}
