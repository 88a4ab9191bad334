import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { childrenByParent, type ProcessRow, processTable, sendSignal } from "../../util/process-table.ts";
import { isProcessAlive } from "../../workspace/lock/index.ts";

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

/** How long `endLeftoverProcesses` waits for the processes it killed to be gone. */
const GONE_WAIT_MS = 2000;
const GONE_POLL_MS = 10;
const COMMAND_CHARS = 80;

/**
 * Ends the processes an earlier run of `executionDir` left running: every process carrying its mark,
 * except this process, its ancestors and its descendants. One that leads its process group is ended
 * with its whole group (every run starts its children as group leaders, so that group is the run's);
 * any other alone. SIGKILL: their runtime is gone, nothing waits for them to finish cleanly. Returns
 * once they are gone (or after two seconds), so nothing of theirs writes after the caller restores
 * files. Linux reads /proc; elsewhere `ps` shows environments, best effort.
 */
export function endLeftoverProcesses(executionDir: string): LeftoverProcess[] {
  const mark = `${EXECUTION_MARK_ENV}=${executionMark(executionDir)}`;
  // The marks first: almost every start finds none, and then needs no process table (a read of every
  // process's `stat`, as many reads again as the environments). A process started between the two
  // reads is missed either way, as it would be by a table read first.
  const marked = markedCommands(mark);
  if (marked.size === 0) return [];
  const table = processTable();
  const spared = ownLine(table);
  const ownGroup = table.find((row) => row.pid === process.pid)?.pgid;
  const ended: LeftoverProcess[] = [];
  for (const row of table) {
    const command = marked.get(row.pid);
    if (command === undefined || spared.has(row.pid)) continue;
    const wholeGroup = row.pgid === row.pid && row.pgid !== ownGroup;
    if (sendSignal(wholeGroup ? -row.pid : row.pid, "SIGKILL")) ended.push({ pid: row.pid, command });
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
  const children = childrenByParent(table);
  const pending = [...(children.get(process.pid) ?? [])];
  for (let row = pending.pop(); row !== undefined; row = pending.pop()) {
    if (line.has(row.pid)) continue;
    line.add(row.pid);
    pending.push(...(children.get(row.pid) ?? []));
  }
  return line;
}

/** `isProcessAlive` counts a killed orphan as gone once it is a zombie (init reaps it a moment later). */
function waitUntilGone(pids: readonly number[]): void {
  const deadline = Date.now() + GONE_WAIT_MS;
  while (pids.some((pid) => isProcessAlive(pid)) && Date.now() < deadline) sleepSync(GONE_POLL_MS);
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

/** The command line of each process whose environment holds `mark`, by pid. */
function markedCommands(mark: string): Map<number, string> {
  return existsSync("/proc/self/environ") ? markedInProc(mark) : markedInPs(mark);
}

/**
 * `/proc/<pid>/environ`, NUL-separated entries, holds `mark` as an entry of its own. Another user's
 * process (no permission), one gone meanwhile and a zombie (its memory is gone) read as empty.
 */
function markedInProc(mark: string): Map<number, string> {
  const entry = Buffer.from(`${mark}\0`);
  const inside = Buffer.from(`\0${mark}\0`);
  const marked = new Map<number, string>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const environ = readOrEmpty(`/proc/${pid}/environ`);
    if (environ.subarray(0, entry.length).equals(entry) || environ.includes(inside)) {
      marked.set(Number(pid), commandLine(readOrEmpty(`/proc/${pid}/cmdline`)));
    }
  }
  return marked;
}

function readOrEmpty(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}

function commandLine(cmdline: Buffer): string {
  const text = cmdline.toString("utf8").replace(/\0+$/, "").replaceAll("\0", " ");
  return text.length > COMMAND_CHARS ? `${text.slice(0, COMMAND_CHARS - 1)}…` : text;
}

/** BSD `ps` prints each process's environment after its command (`e`); a mark is a word there. */
function markedInPs(mark: string): Map<number, string> {
  const text = execFileSync("ps", ["eww", "-A", "-o", "pid=,command="], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const marked = new Map<number, string>();
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    const rest = match?.[2] ?? "";
    const at = rest.indexOf(` ${mark}`);
    const after = rest[at + 1 + mark.length];
    if (match !== null && at >= 0 && (after === undefined || after === " ")) {
      marked.set(Number(match[1]), rest.slice(0, COMMAND_CHARS));
    }
  }
  return marked;
}
