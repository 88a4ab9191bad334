import { mkdirSync, unlinkSync } from "node:fs";
import { hostname as osHostname } from "node:os";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import type { Clock } from "../../util/clock.ts";
import { errorCode } from "../execution/fs-errors.ts";
import { createExclusive, moveAside, readText } from "./lock-files.ts";
import {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_STALE_AFTER_MS,
  judgeLock,
  type LockJudgeFacts,
  type LockRecord,
  lockHeldMessage,
  parseLockRecord,
  serializeLockRecord,
} from "./lock-record.ts";
import { isProcessAlive } from "./process-liveness.ts";

/** The clock the heartbeat runs on; the engine's `Clock` fits it. */
export type LockClock = Clock;

export interface AcquireLockOptions {
  readonly pid: number;
  readonly runId: string;
  readonly clock: LockClock;
  readonly heartbeatMs?: number;
  readonly staleAfterMs?: number;
  readonly hostname?: string;
  readonly port?: number;
  readonly isPidAlive?: (pid: number, lockStartedAtMs: number) => boolean;
  /** Told when a heartbeat finds the lock gone or someone else's (the heartbeat then stops) or cannot write. */
  readonly onHeartbeatProblem?: (problem: HeartbeatProblem) => void;
}

export type HeartbeatProblem =
  | { readonly kind: "lost"; readonly holder: LockRecord | null }
  | { readonly kind: "write-failed"; readonly error: string };

/** The lock that was taken over: the engine marks that run crashed. */
export interface StaleLock {
  readonly pid: number;
  readonly runId: string;
  readonly startedAt: string;
  readonly heartbeatAt: string;
  readonly reason: string;
}

export type LockAcquisition =
  | { readonly ok: true; readonly lock: RuntimeLock; readonly staleFrom?: StaleLock }
  | { readonly ok: false; readonly holder: LockRecord | null; readonly message: string };

export type LockRelease = "released" | "not-ours" | "missing";

/** Whether the lock on disk is still this holder's, and if not, who holds it now (null: nobody). */
export type LockCheck =
  | { readonly held: true }
  | { readonly held: false; readonly holder: LockRecord | null };

export interface RuntimeLock {
  readonly path: string;
  /** This acquisition's fencing token. */
  readonly generation: number;
  /** The record as last written by this process. */
  current(): LockRecord;
  /**
   * Reads the lock from disk: still ours (same host, PID and generation), or taken over (a process that
   * was suspended longer than the stale time lost it) or gone. One small file read.
   */
  stillHeld(): LockCheck;
  /** Records the server's port (written at once when the lock is still ours). */
  setPort(port: number): void;
  /** Records the id of the run the lock serves once it is known (written at once when still ours). */
  setRunId(runId: string): void;
  /** Stops the heartbeat and removes the file if it is still ours. Idempotent. */
  release(): LockRelease;
}

const MAX_ATTEMPTS = 3;

/**
 * Takes `runtime.lock` for this process. Creation is exclusive and atomic (the record is written to a
 * temp file and hard-linked into place, failing if the lock exists), so a reader never sees a half-written
 * lock. A live holder is refused with a message naming it; a stale lock is moved aside, checked to be
 * the one judged stale, and replaced. The heartbeat rewrites the record every `heartbeatMs` on `clock`.
 */
export function acquireLock(path: string, options: AcquireLockOptions): LockAcquisition {
  const settings = settle(options);
  mkdirSync(dirname(path), { recursive: true });
  let staleFrom: StaleLock | undefined;
  let staleGeneration = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const record = newRecord(settings, nextGeneration(path, staleGeneration));
    if (createExclusive(path, serializeLockRecord(record), settings.pid)) {
      saveGeneration(path, record.generation ?? 0, settings.pid);
      const lock = startLock(path, record, settings);
      return staleFrom === undefined ? { ok: true, lock } : { ok: true, lock, staleFrom };
    }
    const text = readText(path);
    if (text === null) continue;
    const holder = parseLockRecord(text);
    const verdict = judgeLock(holder, judgeFacts(settings));
    if (verdict.status === "live" && holder !== null) {
      return { ok: false, holder, message: lockHeldMessage(path, holder, settings.clock.now()) };
    }
    if (!moveAside(path, text, settings.pid)) continue;
    if (holder !== null && verdict.status === "stale") {
      staleFrom = { ...staleFields(holder), reason: verdict.reason };
      staleGeneration = Math.max(staleGeneration, holder.generation ?? 0);
    }
  }
  const message = `Could not take ${path}: other hankweave processes keep creating it. Run again in a moment.`;
  return { ok: false, holder: null, message };
}

export type LockInspection =
  | { readonly status: "free" }
  | { readonly status: "live"; readonly holder: LockRecord; readonly message: string }
  | { readonly status: "stale"; readonly holder: LockRecord | null; readonly reason: string };

/** Reads and judges a lock without taking it (used before touching an execution's files). */
export function inspectLock(
  path: string,
  options: Pick<AcquireLockOptions, "pid" | "hostname" | "isPidAlive" | "staleAfterMs"> & {
    readonly now: number;
  },
): LockInspection {
  const text = readText(path);
  if (text === null) return { status: "free" };
  const holder = parseLockRecord(text);
  const verdict = judgeLock(holder, {
    now: options.now,
    ourPid: options.pid,
    ourHostname: options.hostname ?? osHostname(),
    staleAfterMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
    isPidAlive: options.isPidAlive ?? isProcessAlive,
  });
  if (verdict.status === "live" && holder !== null) {
    return { status: "live", holder, message: lockHeldMessage(path, holder, options.now) };
  }
  return { status: "stale", holder, reason: verdict.status === "stale" ? verdict.reason : "unreadable" };
}

interface Settings {
  readonly pid: number;
  readonly runId: string;
  readonly clock: LockClock;
  readonly heartbeatMs: number;
  readonly staleAfterMs: number;
  readonly hostname: string;
  readonly port?: number;
  readonly isPidAlive: (pid: number, lockStartedAtMs: number) => boolean;
  readonly onHeartbeatProblem: (problem: HeartbeatProblem) => void;
}

function settle(options: AcquireLockOptions): Settings {
  return {
    pid: options.pid,
    runId: options.runId,
    clock: options.clock,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    staleAfterMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
    hostname: options.hostname ?? osHostname(),
    ...(options.port === undefined ? {} : { port: options.port }),
    isPidAlive: options.isPidAlive ?? isProcessAlive,
    onHeartbeatProblem: options.onHeartbeatProblem ?? (() => {}),
  };
}

function newRecord(settings: Settings, generation: number): LockRecord {
  const at = new Date(settings.clock.now()).toISOString();
  const record: LockRecord = {
    pid: settings.pid,
    runId: settings.runId,
    startedAt: at,
    heartbeatAt: at,
    hostname: settings.hostname,
    generation,
  };
  return settings.port === undefined ? record : { ...record, port: settings.port };
}

function judgeFacts(settings: Settings): LockJudgeFacts {
  return {
    now: settings.clock.now(),
    ourPid: settings.pid,
    ourHostname: settings.hostname,
    staleAfterMs: settings.staleAfterMs,
    isPidAlive: settings.isPidAlive,
  };
}

function staleFields(holder: LockRecord): Omit<StaleLock, "reason"> {
  return {
    pid: holder.pid,
    runId: holder.runId,
    startedAt: holder.startedAt,
    heartbeatAt: holder.heartbeatAt,
  };
}

/** The running lock: a heartbeat timer and the record it keeps fresh. */
function startLock(path: string, record: LockRecord, settings: Settings): RuntimeLock {
  let current = record;
  let timer: { readonly id: number } | null = null;
  // Ownership is this process and this acquisition's generation (the fencing token); the run id is
  // what the lock reports about its run and changes once the run is known (`setRunId`).
  const isOurs = (onDisk: LockRecord | null): boolean =>
    onDisk !== null &&
    onDisk.pid === settings.pid &&
    onDisk.hostname === settings.hostname &&
    onDisk.generation === record.generation;
  const write = (): void => {
    try {
      writeFileAtomic(path, serializeLockRecord(current), settings.pid);
    } catch (error) {
      settings.onHeartbeatProblem({ kind: "write-failed", error: errorCode(error) });
    }
  };
  const beat = (): void => {
    timer = null;
    const onDisk = readRecord(path);
    if (!isOurs(onDisk)) {
      settings.onHeartbeatProblem({ kind: "lost", holder: onDisk });
      return;
    }
    current = { ...current, heartbeatAt: new Date(settings.clock.now()).toISOString() };
    write();
    timer = settings.clock.setTimeout(beat, settings.heartbeatMs);
  };
  timer = settings.clock.setTimeout(beat, settings.heartbeatMs);
  return {
    path,
    generation: record.generation ?? 0,
    current: () => current,
    stillHeld() {
      const onDisk = readRecord(path);
      return isOurs(onDisk) ? { held: true } : { held: false, holder: onDisk };
    },
    setPort(port) {
      current = { ...current, port };
      if (isOurs(readRecord(path))) write();
    },
    setRunId(runId) {
      current = { ...current, runId };
      if (isOurs(readRecord(path))) write();
    },
    release() {
      if (timer !== null) settings.clock.clearTimeout(timer);
      timer = null;
      const text = readText(path);
      if (text === null) return "missing";
      if (!isOurs(parseLockRecord(text))) return "not-ours";
      unlinkSync(path);
      return "released";
    },
  };
}

function readRecord(path: string): LockRecord | null {
  const text = readText(path);
  return text === null ? null : parseLockRecord(text);
}

/**
 * The generation counter beside the lock (`runtime.lock.generation`): the last generation handed out,
 * kept when the lock file itself is released, so generations only grow.
 */
function counterPath(lockPath: string): string {
  return `${lockPath}.generation`;
}

function nextGeneration(lockPath: string, staleGeneration: number): number {
  const saved = Number.parseInt(readText(counterPath(lockPath)) ?? "0", 10);
  return Math.max(Number.isNaN(saved) ? 0 : saved, staleGeneration) + 1;
}

/** Best effort: a counter that cannot be written only makes the next generation less certain to grow. */
function saveGeneration(lockPath: string, generation: number, pid: number): void {
  try {
    writeFileAtomic(counterPath(lockPath), `${generation}\n`, pid);
  } catch {
    // The lock itself is taken; its record carries the generation.
  }
}
