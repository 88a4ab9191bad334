import { readFileSync } from "node:fs";
import { procStatFields } from "../../util/proc-stat.ts";

/**
 * Whether the process that wrote a lock still runs. Signal 0 answers "does this PID exist", which is
 * not quite the question, in two ways this module corrects where Linux's /proc can tell:
 * - a process killed a moment ago stays a zombie until its parent reaps it, and signal 0 still finds
 *   it: a rerun right after `kill -9` would be refused for nothing;
 * - a PID is reused once its process is gone: a process that started after the lock was written
 *   cannot be the one that wrote it.
 * Elsewhere (no /proc, or a PID it does not show) signal 0 alone decides.
 */
export function isProcessAlive(pid: number, lockStartedAtMs?: number): boolean {
  if (!signalReaches(pid)) return false;
  const stat = readProcStat(pid);
  if (stat === undefined) return true;
  if (stat.state === "Z" || stat.state === "X" || stat.state === "x") return false;
  if (lockStartedAtMs === undefined || Number.isNaN(lockStartedAtMs)) return true;
  const started = processStartMs(stat.startTicks);
  // Boot time has a 1 s granularity and the lock's clock may be behind the kernel's by a little.
  return started === undefined || started <= lockStartedAtMs + START_SLACK_MS;
}

/** How much later than the lock's `startedAt` its process may appear to have started. */
const START_SLACK_MS = 2_000;
/** /proc reports times in USER_HZ clock ticks, 100 per second on every Linux ABI. */
const TICKS_PER_SECOND = 100;

/** Signal 0 checks without sending; EPERM means the process exists under another user. */
function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error && error.code === "EPERM";
  }
}

interface ProcStat {
  readonly state: string;
  readonly startTicks: number;
}

/** `/proc/<pid>/stat`: the state letter (field 3) and the start time in ticks after boot (field 22). */
function readProcStat(pid: number): ProcStat | undefined {
  const fields = procStatFields(pid);
  const state = fields?.[0];
  const startTicks = Number(fields?.[19]);
  if (state === undefined || !Number.isFinite(startTicks)) return undefined;
  return { state, startTicks };
}

/** Wall-clock milliseconds of a start time in ticks after boot (`btime` in /proc/stat). */
function processStartMs(startTicks: number): number | undefined {
  let text: string;
  try {
    text = readFileSync("/proc/stat", "utf8");
  } catch {
    return undefined;
  }
  const bootSeconds = Number(/^btime (\d+)$/m.exec(text)?.[1]);
  if (!Number.isFinite(bootSeconds)) return undefined;
  return bootSeconds * 1000 + (startTicks / TICKS_PER_SECOND) * 1000;
}
