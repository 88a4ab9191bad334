import type { Checkpointer } from "../checkpoint/index.ts";
import type { EventListener, EventStore } from "../engine/index.ts";
import type { Clock } from "../util/clock.ts";
import type { LockRecord, RuntimeLock } from "../workspace/lock/index.ts";

/**
 * The fence that keeps a process that lost its execution's lock from writing. A process suspended
 * (SIGSTOP, a frozen VM) longer than the lock's stale time finds, once it runs again, that another
 * process took the lock over and continues the execution; whatever it wrote from then on would
 * interleave with the new holder's journal and checkpoints. So before every journal append, checkpoint
 * and snapshot, the fence makes sure the lock on disk still carries this process's generation.
 *
 * Reading the lock file before every write would cost more than the write, so the disk is read only
 * when `CHECK_INTERVAL_MS` or more have passed on the clock since the last confirmation (a clock that
 * jumped back counts as passed). That is safe: a takeover needs the lock to go without a heartbeat for
 * the whole stale time (two minutes), far longer than the interval, and a suspended process comes
 * back with its clock far past it. The heartbeat reports a loss it finds too.
 */
export const CHECK_INTERVAL_MS = 1_000;

/** Thrown at a write attempted after the lock was lost: the run stops without writing anything more. */
export class LockLostError extends Error {
  readonly code = "lock-lost";
  constructor(
    readonly holder: LockRecord | null,
    lock: Pick<RuntimeLock, "path" | "current">,
  ) {
    super(lockLostMessage(holder, lock));
    this.name = "LockLostError";
  }
}

export interface LockFence {
  /** Throws `LockLostError` once the lock is known to be lost; reads the disk when the last check is old. */
  check(): void;
  /** Records a loss found elsewhere (the heartbeat); `onLost` is told once. */
  markLost(holder: LockRecord | null): void;
  readonly lost: boolean;
}

export function createLockFence(lock: RuntimeLock, clock: Pick<Clock, "now">, onLost: () => void): LockFence {
  let lostTo: { readonly holder: LockRecord | null } | undefined;
  let confirmedAt = clock.now();
  const markLost = (holder: LockRecord | null): void => {
    if (lostTo !== undefined) return;
    lostTo = { holder };
    onLost();
  };
  return {
    check() {
      if (lostTo === undefined) {
        const now = clock.now();
        if (now - confirmedAt < CHECK_INTERVAL_MS && now >= confirmedAt) return;
        const found = lock.stillHeld();
        if (found.held) {
          confirmedAt = now;
          return;
        }
        markLost(found.holder);
      }
      throw new LockLostError(lostTo?.holder ?? null, lock);
    },
    markLost,
    get lost() {
      return lostTo !== undefined;
    },
  };
}

/**
 * What happened to the lock. Another process's record means a takeover, which only a lock without a
 * heartbeat for the stale time allows: this process was suspended. A missing file, or a record naming
 * this very process with another generation, was not a takeover: something deleted or rewrote the
 * file while the run held it (an agent works beside it).
 */
function lockLostMessage(holder: LockRecord | null, lock: Pick<RuntimeLock, "path" | "current">): string {
  const stopped = "It stopped without writing anything more";
  const again = `Leave ${lock.path} alone while a run holds it, and run the same command again to continue.`;
  if (holder === null) {
    return `This process lost the execution's lock: its lock file ${lock.path} was removed while the run held it. ${stopped}. ${again}`;
  }
  const ours = lock.current();
  if (holder.pid === ours.pid && holder.hostname === ours.hostname) {
    const generations = `it names this process with generation ${holder.generation ?? "?"}; this run holds generation ${ours.generation ?? "?"}`;
    return `This process lost the execution's lock: its lock file ${lock.path} was rewritten while the run held it (${generations}). ${stopped}. ${again}`;
  }
  const who = `another process took it over (PID ${holder.pid} on ${holder.hostname}, generation ${holder.generation ?? "?"})`;
  return `This process lost the execution's lock while it was suspended: ${who}. ${stopped}; the execution goes on in the process that holds the lock.`;
}

/**
 * A listener that writes the run's id into the lock when the run starts: the lock is taken before the
 * run has an id (`starting`), and a lock naming its run tells a second start (or a person) which run
 * holds the execution.
 */
export function lockNamesRun(lock: Pick<RuntimeLock, "setRunId">): EventListener {
  return (event) => {
    if (event.type !== "state.transition" || event.data.transitionType !== "RunStarted") return;
    const runId = event.data.runId;
    if (runId !== undefined) lock.setRunId(runId);
  };
}

/** Whether this process may still write (the fence holds); false once the lock is known to be lost. */
export function fenceAllowsWrite(fence: LockFence): boolean {
  try {
    fence.check();
    return true;
  } catch (error) {
    if (error instanceof LockLostError) return false;
    throw error;
  }
}

/** The journal behind the fence: no append once the lock is lost. */
export function fencedStore(
  store: EventStore & Required<Pick<EventStore, "appendAll">>,
  fence: LockFence,
): EventStore {
  return {
    append(draft) {
      fence.check();
      return store.append(draft);
    },
    appendAll(drafts) {
      fence.check();
      return store.appendAll(drafts);
    },
  };
}

/** The checkpoint store behind the fence: no commit, restore or new line once the lock is lost. */
export function fencedCheckpointer(checkpointer: Checkpointer, fence: LockFence): Checkpointer {
  return {
    init: () => fenced(fence, () => checkpointer.init()),
    startRun: (runId, fromSha) => fenced(fence, () => checkpointer.startRun(runId, fromSha)),
    commit: (input) => fenced(fence, () => checkpointer.commit(input)),
    restore: (sha, options) => fenced(fence, () => checkpointer.restore(sha, options)),
    list: (runId) => checkpointer.list(runId),
    resolve: (target) => checkpointer.resolve(target),
    filesAt: (sha) => checkpointer.filesAt(sha),
    // Sealing is a write: skipped once the lock is lost (readers then see the line up to the last seal).
    flush: () =>
      fenced(fence, async () => checkpointer.flush?.()).catch((error: unknown) => {
        if (!(error instanceof LockLostError)) throw error;
      }),
    // Packing the store is a write too: skipped (never rejected) once the lock is lost, and what this
    // process holds to write it (spare files) is freed instead.
    close: () => fenced(fence, async () => checkpointer.close?.()).catch(() => checkpointer.release?.()),
    release: () => checkpointer.release?.(),
  };
}

function fenced<T>(fence: LockFence, write: () => Promise<T>): Promise<T> {
  try {
    fence.check();
  } catch (error) {
    return Promise.reject(error);
  }
  return write();
}
