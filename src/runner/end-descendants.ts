import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { procStatFields } from "../util/proc-stat.ts";

/**
 * A forced shutdown (a second Ctrl-C) must leave no process behind: agents and rig commands run as the
 * leaders of their own process groups, so a signal to ours never reaches them, and a process that
 * ignores SIGTERM would outlive the runtime and go on writing into the workspace. This ends every
 * process descending from `rootPid`, each group led by a descendant as a whole (grandchildren that
 * stayed in their leader's group included). Linux reads /proc; elsewhere `ps` answers.
 * Returns how many processes or groups were signalled.
 */
export function endDescendants(rootPid: number, signal: NodeJS.Signals = "SIGKILL"): number {
  const table = processTable();
  const children = new Map<number, ProcessRow[]>();
  for (const row of table) {
    const siblings = children.get(row.ppid);
    if (siblings === undefined) children.set(row.ppid, [row]);
    else siblings.push(row);
  }
  let signalled = 0;
  const pending = [...(children.get(rootPid) ?? [])];
  for (let row = pending.pop(); row !== undefined; row = pending.pop()) {
    pending.push(...(children.get(row.pid) ?? []));
    const leader = row.pgid === row.pid;
    if (send(leader ? -row.pid : row.pid, signal)) signalled++;
  }
  return signalled;
}

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
}

function processTable(): ProcessRow[] {
  try {
    return fromProc();
  } catch {
    return fromPs();
  }
}

/** `/proc/<pid>/stat` of every process: ppid and pgrp are its fields 4 and 5. */
function fromProc(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStatFields(name);
    if (fields === undefined) continue;
    rows.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]) });
  }
  return rows;
}

function fromPs(): ProcessRow[] {
  const text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" });
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((fields) => fields.length === 3 && fields.every(Number.isInteger))
    .map(([pid = 0, ppid = 0, pgid = 0]) => ({ pid, ppid, pgid }));
}

function send(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  }
}
