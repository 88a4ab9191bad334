import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import { newRun } from "../../src/testing/loops-store-conformance/store-fixture.ts";

/** What `/proc` says of a process: resident memory and CPU time so far. */
export interface ProcessSample {
  readonly rssMb: number;
  /** User + system CPU seconds since it started. */
  readonly cpuSeconds: number;
}

const TICKS_PER_SECOND = 100;

/** Linux only: `/proc/<pid>/status` (VmRSS) and `/proc/<pid>/stat` (utime, stime). */
export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th field.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  return { rssMb: rssKb / 1024, cpuSeconds: ticks / TICKS_PER_SECOND };
}

/** The share of one core a process used over `ms` (percent). */
export async function cpuPercentOver(pid: number, ms: number): Promise<number> {
  const before = sampleProcess(pid).cpuSeconds;
  await sleep(ms);
  return ((sampleProcess(pid).cpuSeconds - before) / (ms / 1000)) * 100;
}

/**
 * The dormant part of a thousand Loops, written to the store as admission leaves it: `queued` runs,
 * each behind a live `watching` run of its loop, and `parked` runs (paused, or waiting for an
 * approval), moved there along the state table. Synthetic contracts: the daemon keeps them, never
 * runs them.
 */
export async function seedDormant(store: LoopStore, queued: number, parked: number): Promise<void> {
  for (let i = 0; i < queued; i += 1) {
    await store.admitRun(newRun(`w${i}`, `watched-${i}`), { concurrency: "allow", initial: "watching" });
    await store.admitRun(newRun(`q${i}`, `watched-${i}`), { concurrency: "queue", initial: "running" });
  }
  for (let i = 0; i < parked; i += 1) {
    const id = `p${i}`;
    await store.admitRun(newRun(id, `parked-${i}`), { concurrency: "allow", initial: "running" });
    const token = (await store.acquireLease(id, "seed", 0, 1)) ?? 0;
    const at = new Date().toISOString();
    if (i % 2 === 0)
      await store.transition(id, token, { from: "running", to: "paused", via: "operator_pause", at });
    else await store.transition(id, token, { from: "running", to: "needs-approval", via: "human_gate", at });
    await store.releaseLease(id, token);
  }
}

/**
 * Polls the store every `everyMs` until each of `ids` has been held by a driver (a lease, or a state
 * past running), or `limitMs` passed; returns when each was first seen claimed (ms, `performance.now`).
 */
export async function claimedAt(
  store: LoopStore,
  ids: readonly string[],
  everyMs: number,
  limitMs: number,
): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  const deadline = performance.now() + limitMs;
  while (seen.size < ids.length && performance.now() < deadline) {
    for (const id of ids) {
      if (seen.has(id)) continue;
      const run = await store.getRun(id);
      const claimed = run !== undefined && (run.leaseOwner !== null || run.state !== "running");
      if (claimed) seen.set(id, performance.now());
    }
    await sleep(everyMs);
  }
  return seen;
}
