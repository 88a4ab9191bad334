import { z } from "zod";

/**
 * The content of `.hankweave/runtime.lock` and the pure rules that judge it. A lock is live while its
 * process runs and its heartbeat is fresh; otherwise it is stale and the next start takes it over.
 */
export const DEFAULT_HEARTBEAT_MS = 30_000;
export const DEFAULT_STALE_AFTER_MS = 120_000;

export const LockRecordSchema = z.object({
  pid: z.number().int().positive(),
  runId: z.string(),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  /** The WebSocket port, once the server has bound (`--attach` reads it). */
  port: z.number().int().nonnegative().optional(),
  hostname: z.string(),
  /**
   * The fencing token: one more than any earlier holder's, so every acquisition of an execution's lock
   * has its own. A holder checks that the lock on disk still carries its generation before it writes
   * (see `RuntimeLock.stillHeld`). Absent in locks written before generations existed.
   */
  generation: z.number().int().positive().optional(),
});
export type LockRecord = z.infer<typeof LockRecordSchema>;

/** The record, or null when the text is not a lock record (torn, empty, foreign). */
export function parseLockRecord(text: string): LockRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = LockRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function serializeLockRecord(record: LockRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export interface LockJudgeFacts {
  readonly now: number;
  readonly ourPid: number;
  readonly ourHostname: string;
  readonly staleAfterMs: number;
  /**
   * Asked only for a lock written on this host: whether the process that took the lock at
   * `lockStartedAtMs` still runs (see `isProcessAlive`).
   */
  readonly isPidAlive: (pid: number, lockStartedAtMs: number) => boolean;
}

export type LockVerdict = { readonly status: "live" } | { readonly status: "stale"; readonly reason: string };

/**
 * Live when the heartbeat is at most `staleAfterMs` old and, on this host, the process exists. A lock
 * from another host (shared filesystem) is judged by its heartbeat alone: its PID means nothing here.
 * A lock carrying our own PID on our host cannot belong to a running peer (the PID was reused, as after
 * a container restart), so it is stale.
 */
export function judgeLock(record: LockRecord | null, facts: LockJudgeFacts): LockVerdict {
  if (record === null) return { status: "stale", reason: "the lock file is unreadable" };
  const beat = Date.parse(record.heartbeatAt);
  if (Number.isNaN(beat)) return { status: "stale", reason: "the lock has no valid heartbeat time" };
  const age = facts.now - beat;
  if (age > facts.staleAfterMs) {
    return { status: "stale", reason: `no heartbeat for ${Math.round(age / 1000)} s` };
  }
  if (record.hostname !== facts.ourHostname) return { status: "live" };
  if (record.pid === facts.ourPid) return { status: "stale", reason: `PID ${record.pid} is this process` };
  if (!facts.isPidAlive(record.pid, Date.parse(record.startedAt))) {
    return { status: "stale", reason: `process ${record.pid} is not running` };
  }
  return { status: "live" };
}

/** The refusal for a live lock: who holds it and how to proceed. */
export function lockHeldMessage(lockPath: string, holder: LockRecord, now: number): string {
  const beat = Math.max(0, Math.round((now - Date.parse(holder.heartbeatAt)) / 1000));
  const where = holder.hostname ? ` on ${holder.hostname}` : "";
  const port = holder.port === undefined ? "" : `, port ${holder.port}`;
  return [
    `This execution is in use by another hankweave process: PID ${holder.pid}${where}, run ${holder.runId}${port}, ` +
      `started ${holder.startedAt}, last heartbeat ${beat} s ago (lock: ${lockPath}).`,
    "Wait for it to finish, watch it with --attach, or stop it (e.g. kill " +
      `${holder.pid}) and run again. A lock whose process is gone, or whose heartbeat is older than ` +
      "2 minutes, is taken over automatically.",
  ].join("\n");
}
