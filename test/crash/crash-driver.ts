import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { type CliResult, cliEnvironment, REPO_ROOT } from "../fixtures/hankweave-cli.ts";
import { findJournal, JournalTail } from "../fixtures/journal-watch.ts";

/**
 * Runs the bundled CLI (see bundled-cli.ts) as the leader of its own process group and sends it a
 * signal when a chosen journal event shows up: SIGKILL to the whole group (the CLI and the git
 * processes it runs, as when a machine dies), or SIGINT to the group (a Ctrl-C at the terminal; the
 * agents' own process groups are not in it). Every wait ends on a journal line or on the process
 * exiting; `delayMs` moves a kill point inside a step.
 */

export interface SignalTrigger {
  readonly when: (event: JournaledEvent) => boolean;
  /** Another observable fact that fires the signal, checked at every poll (a file the agent made). */
  readonly seen?: () => boolean;
  readonly delayMs?: number;
  readonly signal: "SIGKILL" | "SIGINT" | "SIGTERM" | "SIGHUP";
  /** The same signal a second time, this long after the first: the forced shutdown. */
  readonly secondAfterMs?: number;
}

export interface SignalledRun {
  readonly result: CliResult;
  readonly pid: number | undefined;
  /** The signal was sent while the process still ran (a SIGKILL that landed, or a delivered SIGINT). */
  readonly signalled: boolean;
  readonly journal: string | undefined;
}

export interface DriverOptions {
  readonly bin: string;
  readonly baseDir: string;
  readonly env: Readonly<Record<string, string>>;
}

const POLL_MS = 2;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function endOfLastRecord(path: string | undefined): number {
  if (path === undefined || !existsSync(path)) return 0;
  return readFileSync(path).lastIndexOf(0x0a) + 1;
}

function sendToGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function startBin(bin: string, args: readonly string[], env: Readonly<Record<string, string>>) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: REPO_ROOT,
    env: cliEnvironment(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Runs the CLI to its end. */
export function runBin(options: DriverOptions, args: readonly string[]): Promise<CliResult> {
  return startBin(options.bin, args, options.env).done;
}

/** Runs the CLI and signals it when the trigger fires; `signalled` is false when it ended first. */
export async function runAndSignal(
  options: DriverOptions,
  args: readonly string[],
  trigger: SignalTrigger,
): Promise<SignalledRun> {
  let journal = findJournal(options.baseDir);
  const tail = new JournalTail(endOfLastRecord(journal));
  const running = startBin(options.bin, args, options.env);
  let exited = false;
  const done = running.done.finally(() => {
    exited = true;
  });
  let sent = false;
  while (!exited) {
    journal ??= findJournal(options.baseDir);
    const events = journal === undefined ? [] : tail.read(journal);
    if (events.some(trigger.when) || trigger.seen?.() === true) {
      if (trigger.delayMs !== undefined) await pause(trigger.delayMs);
      sent = !exited && sendToGroup(running.child.pid, trigger.signal);
      if (sent && trigger.secondAfterMs !== undefined) {
        await Promise.race([pause(trigger.secondAfterMs), done]);
        if (!exited) sendToGroup(running.child.pid, trigger.signal);
      }
      break;
    }
    await pause(POLL_MS);
  }
  const result = await done;
  const signalled = trigger.signal === "SIGKILL" ? sent && result.signal === "SIGKILL" : sent;
  return { result, pid: running.child.pid, signalled, journal: journal ?? findJournal(options.baseDir) };
}
