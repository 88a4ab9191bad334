import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { procStatFields } from "./proc-stat.ts";

/** One process of the machine: its id, its parent's and its process group's. */
export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
}

/** Every process this user can see. Linux reads /proc; elsewhere `ps` answers. */
export function processTable(): ProcessRow[] {
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

/** The rows by their parent's id, for walks down the process tree. */
export function childrenByParent(table: readonly ProcessRow[]): Map<number, ProcessRow[]> {
  const children = new Map<number, ProcessRow[]>();
  for (const row of table) {
    const siblings = children.get(row.ppid);
    if (siblings === undefined) children.set(row.ppid, [row]);
    else siblings.push(row);
  }
  return children;
}

/** `process.kill` that reports instead of throwing: false when the target is gone or not ours. */
export function sendSignal(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  }
}
