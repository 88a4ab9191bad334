import { randomUUID } from "node:crypto";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { ArchiveRestorer, Clock, EventListener, JournalLine, RollbackDeps } from "../engine/index.ts";
import { createEventSink, readJournalLine } from "../engine/index.ts";
import { JournalWriter, writeSnapshot } from "../journal/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { acquireLock } from "../workspace/lock/index.ts";
import { archiveRestorer } from "./archive-restorer.ts";
import { createLockFence, fencedCheckpointer, fencedStore, type LockFence } from "./lock-fence.ts";
import { executionMarkEnv } from "./recovery/leftover-processes.ts";
import { recoverCrash } from "./recovery/mark-crashed-run.ts";

export interface RollbackSessionInput {
  readonly layout: ExecutionLayout;
  readonly clock: Clock;
  /** Hear every event the rollback journals (a printer, the server's broadcast). */
  readonly listeners: readonly EventListener[];
  /** Written into the lock while the rollback holds it, so `--attach` still finds a server. */
  readonly port?: number;
}

/** What a rollback writes through: every write behind the execution lock's fence. */
export interface RollbackSession {
  /** The journal as it was when the lock was taken. */
  readonly line: JournalLine;
  /** The dependencies of `rollbackExecution` (`abandonRollback` takes its `sink` and `checkpointer`). */
  readonly deps: RollbackDeps;
}

export type RollbackSessionResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/**
 * A rollback's composition, for `hankweave rollback` and the server alike: takes the execution lock
 * (refused while a run holds it), reads the journal line, recovers from a crash as a run's start does
 * (`recoverCrash`: the crashed run journaled, git's stale lock files removed), and hands `body` the
 * sink, git checkpointer, archive and snapshot writer of the execution; then closes the journal and
 * releases the lock.
 *
 * Every write goes through the lock's fence (lock-fence.ts): a process suspended mid-rollback longer
 * than the lock's stale time, whose execution another process took over meanwhile, stops at its next
 * journal append, restore (work tree or archive) or snapshot with `LockLostError` instead of writing
 * over the new holder.
 */
export async function withRollbackSession<T>(
  input: RollbackSessionInput,
  body: (session: RollbackSession) => Promise<T>,
): Promise<RollbackSessionResult<T>> {
  const { layout, clock } = input;
  const lock = acquireLock(layout.lockPath, {
    pid: process.pid,
    runId: "rollback",
    clock,
    ...(input.port !== undefined && { port: input.port }),
  });
  if (!lock.ok) return { ok: false, message: lock.message };
  try {
    const fence = createLockFence(lock.lock, clock, () => undefined);
    const line = await readJournalLine(layout.eventsPath);
    const writer = JournalWriter.open(layout.eventsPath);
    try {
      const sink = createEventSink({
        store: fencedStore(writer, fence),
        initialState: line.state,
        listeners: input.listeners,
      });
      recoverCrash(sink, lock.staleFrom, layout);
      const checkpointer = fencedCheckpointer(
        createGitCheckpointer({
          gitDir: layout.checkpointGitDir,
          workTree: layout.agentRoot,
          clock,
          extraEnv: executionMarkEnv(layout.executionDir),
        }),
        fence,
      );
      const deps: RollbackDeps = {
        sink,
        checkpointer,
        archives: fencedArchives(archiveRestorer(layout, clock), fence),
        newRunId: randomUUID,
        persist: (plan) => {
          fence.check();
          writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: plan });
        },
      };
      return { ok: true, value: await body({ line, deps }) };
    } finally {
      writer.close();
    }
  } finally {
    lock.lock.release();
  }
}

/** The archive behind the fence: no archived file is written back once the lock is lost. */
function fencedArchives(archives: ArchiveRestorer, fence: LockFence): ArchiveRestorer {
  return {
    openEntries: () => archives.openEntries(),
    restore: async (codonId, entryIds) => {
      fence.check();
      return archives.restore(codonId, entryIds);
    },
  };
}
