import { cpSync } from "node:fs";
import { join } from "node:path";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import type { CheckpointRecord } from "../../src/checkpoint/index.ts";
import { checkpointThread, readJournalLine } from "../../src/engine/rollback/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import {
  type ExecutionHandle,
  type ExecutionOptions,
  type ExecutionResult,
  startExecution,
} from "../../src/runner/index.ts";
import { createFakeClock, type FakeClock } from "../../src/testing/index.ts";
import type { ExecutionLayout } from "../../src/workspace/execution-layout.ts";
import type { Sandbox } from "../workspace/support.ts";

/**
 * Shared by the runner's end-to-end tests: runs in this process through `startExecution`, on a fake
 * clock where a test needs a codon to stand still (the scripted agent's `@sleep`), with executions kept
 * in the sandbox.
 */

export function runOptions(
  box: Sandbox,
  hank: string,
  extra: Partial<ExecutionOptions> = {},
): ExecutionOptions {
  return {
    hank,
    cwd: box.root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: box.executions },
    ...extra,
  };
}

/** A run held mid-codon: the agent sleeps on a fake clock that only the test moves. */
export interface HeldRun {
  readonly handle: ExecutionHandle;
  readonly clock: FakeClock;
  readonly layout: ExecutionLayout;
  readonly cancel: AbortController;
}

/**
 * Starts a run on a fake clock and resolves once `when` has been journaled and the scripted agent's
 * `@sleep <sleepMs>` is waiting on the clock: nothing writes to the execution until the clock moves.
 */
export async function holdRun(
  options: ExecutionOptions,
  when: (event: JournaledEvent) => boolean,
  sleepMs: number,
): Promise<HeldRun> {
  const clock = createFakeClock({ start: Date.now() });
  const cancel = new AbortController();
  const handle = startExecution({ ...options, clock, signal: cancel.signal });
  const seen = new Promise<void>((resolve) => {
    handle.events.subscribe((event) => {
      if (when(event)) resolve();
    });
  });
  const layout = await handle.opened;
  if (layout === undefined) throw new Error(`the run did not start: ${JSON.stringify(await handle.done)}`);
  await seen;
  await clock.nextTimer((timer) => timer.delayMs === sleepMs);
  return { handle, clock, layout, cancel };
}

/**
 * The disk as a crash at this moment would leave it: a copy of the execution directory (links kept as
 * links). Its lock names this process, which a start in this process judges stale, as after a crash.
 */
export function copyExecution(layout: ExecutionLayout, to: string): string {
  return copyTree(layout.executionDir, to);
}

/** A copy of a directory tree, links kept as links. */
export function copyTree(from: string, to: string): string {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  return to;
}

/**
 * Runs to the end on a fake clock that skips every scripted `@sleep <sleepMs>` as soon as the agent
 * waits on it, so a codon that sleeps in a held run does not sleep when it runs again.
 */
export async function runSkippingSleeps(
  options: ExecutionOptions,
  sleepMs: number,
): Promise<ExecutionResult> {
  const clock = createFakeClock({ start: Date.now() });
  const handle = startExecution({ ...options, clock });
  let ended = false;
  const done = handle.done.finally(() => {
    ended = true;
  });
  const skip = async (): Promise<void> => {
    while (!ended) {
      const sleeping = clock.nextTimer((timer) => timer.delayMs === sleepMs);
      const next = await Promise.race([sleeping, done.then(() => undefined)]);
      if (next !== undefined) clock.advance(next.dueAt - clock.now());
    }
  };
  await Promise.all([skip(), done]);
  return done;
}

/** Stops a held run with a delivered cancel and waits for its end. */
export async function cancelHeld(held: HeldRun): Promise<ExecutionResult> {
  held.cancel.abort("test");
  return held.handle.done;
}

/** The checkpoints on the execution's current line (the thread the journal and the store agree on). */
export async function threadOf(layout: ExecutionLayout): Promise<CheckpointRecord[]> {
  const checkpointer = createGitCheckpointer({
    gitDir: layout.checkpointGitDir,
    workTree: layout.agentRoot,
    clock: { now: () => Date.now() },
  });
  await checkpointer.init();
  const [line, records] = await Promise.all([readJournalLine(layout.eventsPath), checkpointer.list()]);
  return checkpointThread(line.steps, records);
}

export function agentFile(layout: ExecutionLayout, name: string): string {
  return join(layout.agentRoot, name);
}
