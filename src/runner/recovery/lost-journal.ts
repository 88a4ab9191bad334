import { existsSync, readdirSync, statSync } from "node:fs";
import type { Checkpointer } from "../../checkpoint/index.ts";
import type { EventSink } from "../../engine/index.ts";
import { type JournalReplaced, journalRestorePath, type LoadedRunState } from "../../journal/index.ts";
import { shellCommand } from "../../util/shell-quote.ts";
import { DATA_LINK_NAME, type ExecutionLayout } from "../../workspace/execution-layout.ts";

/**
 * A journal that lost what the rest of the execution remembers is not a fresh start: running would
 * start the hank over on a workspace that already holds work. Whether that is so, as a refusal that
 * says what was found and how to go on; undefined when the journal covers everything it should.
 *
 * Evidence of earlier work: a state snapshot further along than the journal, checkpoints of earlier
 * runs, or files in the agent's workspace (a new execution holds only the data link). Only looked for
 * when the journal is missing, empty, or behind the snapshot, so a normal start pays nothing.
 */
export async function lostJournalProblem(
  layout: ExecutionLayout,
  restored: LoadedRunState,
  checkpointer: Checkpointer,
): Promise<string | undefined> {
  const journalSeq = restored.source === "journal" ? restored.state.lastSeq : undefined;
  const snapshotSeq = restored.snapshot?.runState.lastSeq ?? 0;
  const behind = journalSeq !== undefined && snapshotSeq > journalSeq;
  if (restored.state.runs.length > 0 && !behind) return undefined;
  const evidence = [
    ...(snapshotSeq > (journalSeq ?? 0) ? [`state.json records ${snapshotSeq} event(s)`] : []),
    ...(await checkpointEvidence(checkpointer)),
    ...workspaceEvidence(layout),
  ];
  if (evidence.length === 0) return undefined;
  return refusal(layout, journalSeq ?? restored.state.lastSeq, evidence);
}

async function checkpointEvidence(checkpointer: Checkpointer): Promise<string[]> {
  try {
    await checkpointer.init();
    const records = await checkpointer.list();
    return records.length > 0 ? [`the checkpoint store holds ${records.length} checkpoint(s)`] : [];
  } catch {
    return [];
  }
}

function workspaceEvidence(layout: ExecutionLayout): string[] {
  if (!existsSync(layout.agentRoot)) return [];
  const entries = readdirSync(layout.agentRoot).filter((name) => name !== DATA_LINK_NAME);
  return entries.length > 0
    ? [`the workspace holds ${entries.length} entr${entries.length === 1 ? "y" : "ies"}`]
    : [];
}

function refusal(layout: ExecutionLayout, journalSeq: number, evidence: readonly string[]): string {
  const what = journalState(layout.eventsPath, journalSeq);
  return [
    `The journal of this execution (${layout.eventsPath}) ${what}, but ${evidence.join(", ")}.`,
    "Running now would start the hank over on a workspace that already holds work, so nothing was run.",
    keepTheWork(layout.eventsPath),
    `To start over, move the old state aside and empty the workspace: add --start-new --force -e ${layout.executionDir}`,
  ].join("\n");
}

/** What the journal holds: nothing, bytes that are no records (overwritten), or records up to a point. */
function journalState(path: string, journalSeq: number): string {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return "is missing";
  if (journalSeq > 0) return `ends at event ${journalSeq}`;
  return size === 0 ? "is empty" : `holds no readable record (${size} bytes)`;
}

/**
 * How to keep the work: the copy a writer killed while putting back a replaced journal left (see
 * journal-restore), else a backup.
 */
function keepTheWork(eventsPath: string): string {
  const restore = journalRestorePath(eventsPath);
  if (!existsSync(restore))
    return "To keep the work, put events.jsonl back (from a backup or a copy of the execution) and run again.";
  const move = shellCommand(["mv", restore, eventsPath]);
  return `A copy of the journal this runtime was writing is in ${restore}: to keep the work, run ${move} and run again.`;
}

/** The journal `error` code of a journal the writer found replaced and put back. */
export const JOURNAL_REPLACED_CODE = "journal-replaced";

/**
 * The writer's `onReplaced`, journaling a warning for each replacement once the run's sink exists
 * (a replacement found before that is reported when the sink is attached).
 */
export function replacedJournalReporter(): {
  onReplaced(replaced: JournalReplaced): void;
  reportTo(sink: EventSink): void;
} {
  const waiting: JournalReplaced[] = [];
  let target: EventSink | undefined;
  const report = (sink: EventSink, replaced: JournalReplaced): void => {
    const kept =
      replaced.keptAs === undefined ? "" : `, and what was found there was kept as ${replaced.keptAs}`;
    sink.emit("error", {
      message: `The journal ${replaced.path} was replaced while the run was writing it (an edit that renames a copy over it, such as sed -i, or a delete): the runtime's records were put back${kept}. Nothing was lost; leave .hankweave/ alone while a run writes it.`,
      fatal: false,
      severity: "warning",
      code: JOURNAL_REPLACED_CODE,
    });
  };
  return {
    onReplaced(replaced) {
      if (target === undefined) waiting.push(replaced);
      else report(target, replaced);
    },
    reportTo(sink) {
      target = sink;
      for (const replaced of waiting.splice(0)) report(sink, replaced);
    },
  };
}
