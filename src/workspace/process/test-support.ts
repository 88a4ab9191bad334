import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { procStatFields } from "../../util/proc-stat.ts";
import type { ProcessClock } from "./process-clock.ts";

/** Shared by the process and rig tests: a hand-driven clock, temp dirs and a look at live processes. */

export interface FakeClock extends ProcessClock {
  /** Moves time forward and fires the timers that came due, in order. */
  advance(ms: number): void;
  pendingTimers(): number;
}

export function createFakeClock(start = 0): FakeClock {
  let now = start;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback });
      return { id: handle };
    },
    clearTimeout(handle) {
      timers.delete(handle.id);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = until;
    },
    pendingTimers: () => timers.size,
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `hankweave-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Pids of the processes of a group that are still running (zombies, which are dead and only wait to
 * be reaped by whoever inherited them, do not count). Reads /proc, so Linux only.
 */
export function liveGroupMembers(groupId: number): number[] {
  const live: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== null && stat.group === groupId && stat.state !== "Z") live.push(Number(name));
  }
  return live;
}

/** Whether a process still runs (not gone, not a zombie). Linux only. */
export function isRunning(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== "Z";
}

function readStat(pid: number): { state: string; group: number } | null {
  const fields = procStatFields(pid);
  return fields === undefined ? null : { state: fields[0] ?? "", group: Number(fields[2]) };
}

/**
 * Resolves true once `pid` no longer runs, false if it still runs after 5 s. The kernel closes a dying
 * process's pipes a moment before it marks it a zombie, so a check made as soon as the output ended
 * can land in that moment on a loaded machine.
 */
export function stopsRunning(pid: number): Promise<boolean> {
  return settles(() => !isRunning(pid));
}

/** As `stopsRunning`, for every member of a process group. */
export function groupEnds(groupId: number): Promise<boolean> {
  return settles(() => liveGroupMembers(groupId).length === 0);
}

async function settles(condition: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}
