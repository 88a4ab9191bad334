import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { procStatFields } from "../util/proc-stat.ts";

/**
 * The variable every process a run starts carries (agents, rig commands, and what they start in turn):
 * the real path of the run's execution directory. A runtime killed outright (`kill -9`, the OOM killer)
 * cannot end its children: they run in process groups of their own, so they live on, orphaned, in the
 * workspace. The next holder of the execution's lock finds them by this mark and ends them before it
 * restores the workspace, or a rig command still sleeping would write into the restored files.
 * `HANKWEAVE_RUNTIME_*` variables are not turned into agent variables (see agent-env.ts).
 */
export const EXECUTION_MARK_ENV = "HANKWEAVE_RUNTIME_PARENT_EXECUTION";

/** `env` with the execution's mark added (a new object). */
export function markedEnv(
  env: Readonly<Record<string, string | undefined>>,
  executionDir: string,
): Record<string, string | undefined> {
  return { ...env, ...executionMarkEnv(executionDir) };
}

/** The mark alone, as one variable. */
export function executionMarkEnv(executionDir: string): Record<string, string> {
  return { [EXECUTION_MARK_ENV]: executionMark(executionDir) };
}

/** The mark's value: the execution directory's real path (the same through any symlink to it). */
export function executionMark(executionDir: string): string {
  try {
    return realpathSync(executionDir);
  } catch {
    return resolve(executionDir);
  }
}

export interface LeftoverProcess {
  readonly pid: number;
  /** Its command line, cut to 80 characters, for the journal. */
  readonly command: string;
}

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly marked: boolean;
  readonly command: string;
}

/** How long `endLeftoverProcesses` waits for the processes it killed to be gone. */
const GONE_WAIT_MS = 2000;
const GONE_POLL_MS = 10;

/**
 * Ends the processes an earlier run of `executionDir` left running: every process carrying its mark,
 * except this process, its ancestors and its descendants. One that leads its process group is ended with its whole
 * group (every run starts its children as group leaders, so that group is the run's); any other alone.
 * SIGKILL: their runtime is gone, nothing waits for them to finish cleanly. Returns once they are gone
 * (or after two seconds), so nothing of theirs writes after the caller restores files. Linux reads
 * /proc; elsewhere `ps` shows environments, best effort.
 */
export function endLeftoverProcesses(executionDir: string): LeftoverProcess[] {
  const mark = `${EXECUTION_MARK_ENV}=${executionMark(executionDir)}`;
  const table = processTable(mark);
  const spared = ownLine(table);
  const ownGroup = table.find((row) => row.pid === process.pid)?.pgid;
  const ended: LeftoverProcess[] = [];
  for (const row of table) {
    if (!row.marked || spared.has(row.pid)) continue;
    const wholeGroup = row.pgid === row.pid && row.pgid !== ownGroup;
    if (send(wholeGroup ? -row.pid : row.pid)) ended.push({ pid: row.pid, command: row.command });
  }
  waitUntilGone(ended.map((process) => process.pid));
  return ended;
}

/**
 * This process, its ancestors and its descendants: never ended, whatever they carry (a process this
 * runtime started already, a git process of its own checkpointer, carries the mark too).
 */
function ownLine(table: readonly ProcessRow[]): Set<number> {
  const parents = new Map(table.map((row) => [row.pid, row.ppid]));
  const line = new Set<number>();
  for (let pid: number | undefined = process.pid; pid !== undefined && pid > 0 && !line.has(pid); ) {
    line.add(pid);
    pid = parents.get(pid);
  }
  const children = new Map<number, number[]>();
  for (const row of table) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid]);
  const pending = [...(children.get(process.pid) ?? [])];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (line.has(pid)) continue;
    line.add(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return line;
}

function send(target: number): boolean {
  try {
    process.kill(target, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

function waitUntilGone(pids: readonly number[]): void {
  const deadline = Date.now() + GONE_WAIT_MS;
  while (pids.some(isAlive) && Date.now() < deadline) sleepSync(GONE_POLL_MS);
}

/** Alive and not yet a zombie (a killed orphan is reaped by init a moment after it dies). */
function isAlive(pid: number): boolean {
  const fields = procStatFields(pid);
  if (fields !== undefined) return fields[0] !== "Z";
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

function processTable(mark: string): ProcessRow[] {
  try {
    return fromProc(mark);
  } catch {
    return fromPs(mark);
  }
}

/** `/proc/<pid>/stat` for state, ppid and pgrp, `environ` for the mark, `cmdline` for the journal. */
function fromProc(mark: string): ProcessRow[] {
  const entry = Buffer.from(`${mark}\0`);
  const rows: ProcessRow[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStatFields(name);
    if (fields === undefined) continue;
    // A zombie has already ended (its parent has not reaped it yet): nothing to end.
    const environ = fields[0] === "Z" ? Buffer.alloc(0) : readOrEmpty(`/proc/${name}/environ`);
    const marked =
      environ.subarray(0, entry.length).equals(entry) || environ.includes(Buffer.concat([NUL, entry]));
    const command = marked ? commandLine(readOrEmpty(`/proc/${name}/cmdline`)) : "";
    rows.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), marked, command });
  }
  return rows;
}

const NUL = Buffer.from([0]);

/** Another user's process (no permission) or one gone meanwhile reads as empty. */
function readOrEmpty(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}

function commandLine(cmdline: Buffer): string {
  const text = cmdline.toString("utf8").replace(/\0+$/, "").replaceAll("\0", " ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** BSD `ps` prints each process's environment after its command (`e`); a mark is a word there. */
function fromPs(mark: string): ProcessRow[] {
  const text = execFileSync("ps", ["eww", "-A", "-o", "pid=,ppid=,pgid=,command="], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return text.split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match === null) return [];
    const rest = match[4] ?? "";
    const at = rest.indexOf(` ${mark}`);
    const after = rest[at + 1 + mark.length];
    const marked = at >= 0 && (after === undefined || after === " ");
    const command = rest.slice(0, 80);
    return [{ pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), marked, command }];
  });
}
