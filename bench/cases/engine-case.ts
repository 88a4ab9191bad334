import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { EventListener } from "../../src/engine/index.ts";
import { systemClock } from "../../src/engine/index.ts";
import { createHarnessRegistry } from "../../src/harness/registry.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import { JournalWriter } from "../../src/journal/index.ts";
import { createRunChannels, openRunSink, runWorkspace } from "../../src/runner/index.ts";
import { type ExecutionLayout, executionLayout } from "../../src/workspace/execution-layout.ts";
import { createBoundaryProbe } from "./boundary-probe.ts";
import { type HankFixture, writeHank } from "./hank-fixture.ts";
import { loadFixture } from "./load-fixture.ts";
import { createMemoryStore } from "./memory-store.ts";
import { type EngineMode, modeHooks, timedStore } from "./mode-hooks.ts";
import { type Bucket, createSplitTimer } from "./split-timer.ts";
import { timedHooks } from "./timed-hooks.ts";
import { createWorkspaceFiles } from "./workspace-files.ts";

export type { EngineMode } from "./mode-hooks.ts";

export interface EngineCaseArgs {
  readonly fixture: HankFixture;
  readonly mode: EngineMode;
  /** Files created in agentRoot before the run (checkpoint cost against workspace size). */
  readonly workspaceFiles?: number;
  /** Sample RSS every this many codons (long loops). */
  readonly rssEvery?: number;
  /** Print every git command line to stderr (to see what a checkpoint runs). */
  readonly traceGit?: boolean;
  /** Cancel the run after this many milliseconds (keeps a runaway benchmark inside its time box). */
  readonly deadlineMs?: number;
}

export interface EngineCaseResult {
  readonly status: string;
  readonly codons: number;
  /** The run's wall time, without the time the case's own snapshot counter took (a stat per codon). */
  readonly totalMs: number;
  /** Milliseconds from the previous codon.completed (or the run start) to each codon.completed. */
  readonly boundaries: number[];
  /** Exclusive milliseconds per bucket over the whole run. */
  readonly split: Readonly<Record<Bucket, number>>;
  /** Checkpoint milliseconds of each codon. */
  readonly checkpointPerCodon: number[];
  /** The startRun hook: checkpoint store init and run branch. */
  readonly startRunMs: number;
  /** Git processes over the whole run, and those of the startRun hook. */
  readonly gitSpawns: number;
  readonly startRunGitSpawns: number;
  readonly events: number;
  readonly journalBytes: number;
  /** The size of state.json at the end, and how many times the run wrote it. */
  readonly snapshotBytes: number;
  readonly snapshotWrites: number;
  readonly maxRssMb: number;
  readonly rssMb: number[];
  /** Writing the hank, validating it and creating the workspace files (not timed in the run). */
  readonly setupMs: number;
  /** `Checkpointer.close` after the run (the git store's last packing), not in `totalMs`. */
  readonly closeMs: number;
  /** The checkpoint store after the run and its close: bytes and files in the git dir (`full` only). */
  readonly store: { readonly bytes: number; readonly files: number };
}

/** One run of a benchmark hank through `runHank`, in a fresh temporary directory, instrumented. */
export async function engineCase(args: EngineCaseArgs): Promise<EngineCaseResult> {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-"));
  try {
    return await runIn(root, args);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function runIn(root: string, args: EngineCaseArgs): Promise<EngineCaseResult> {
  const setupStart = performance.now();
  const hankDir = writeHank(join(root, "hank"), args.fixture);
  const { hank, models } = loadFixture(hankDir);
  const layout = executionLayout(join(root, "exec"));
  mkdirSync(layout.agentRoot, { recursive: true });
  mkdirSync(layout.stateDir, { recursive: true });
  if (args.workspaceFiles !== undefined) createWorkspaceFiles(layout.agentRoot, args.workspaceFiles);
  const setupMs = performance.now() - setupStart;

  const timer = createSplitTimer();
  const clock = systemClock();
  const writer =
    args.mode === "memory"
      ? null
      : JournalWriter.open(layout.eventsPath, { durability: args.mode === "durable" ? "boundary" : "os" });
  let gitSpawns = 0;
  const probe = createBoundaryProbe(timer, args.rssEvery ?? 0, () => gitSpawns);
  const cancel = new AbortController();
  const channels = createRunChannels(randomUUID, () => (writer === null ? undefined : layout.eventsPath));
  const sink = openRunSink({
    store: timedStore(writer ?? createMemoryStore(), timer),
    listeners: [probe.listener, deadlineListener(args.deadlineMs, cancel)],
    channels,
  });
  const onGit = (gitArgs: readonly string[]): void => {
    gitSpawns++;
    if (args.traceGit) process.stderr.write(`git ${gitArgs.join(" ")}\n`);
  };
  const mode = modeHooks(
    args.mode,
    { layout, hankDir, hank, sink, clock, onGit },
    writer === null ? undefined : () => timer.sync("journal", () => writer.flush()),
  );
  const hooks = mode?.hooks;
  const snapshots = snapshotCounter(layout.statePath);
  const start = performance.now();
  probe.start(start);
  // The runner's own composition (sink, bus, inbox, engine) over a workspace this case laid out, so the
  // hooks can be timed one by one.
  const result = await runWorkspace({
    hank,
    hankDir,
    models,
    agentRoot: layout.agentRoot,
    env: process.env,
    options: { headless: true },
    clock,
    newId: randomUUID,
    sink,
    harnesses: createHarnessRegistry({
      scripted: () => createScriptedHarness({ clock, newId: randomUUID }),
    }),
    channels,
    signal: cancel.signal,
    ...(hooks !== undefined && {
      hooks: timedHooks(hooks, timer, { onStartRun: probe.onStartRun, afterPersist: snapshots.check }),
    }),
  });
  await channels.events.close();
  const totalMs = performance.now() - start - snapshots.ownMs();
  writer?.close();
  // The runner closes the checkpointer as a run ends: the git store packs what the run wrote.
  const closeStart = performance.now();
  await mode?.checkpointer.close?.();
  const closeMs = performance.now() - closeStart;
  return {
    status: result.status === "completed" ? "completed" : `${result.status}: ${result.message}`,
    codons: probe.boundaries.length,
    totalMs,
    boundaries: probe.boundaries,
    split: timer.totals(),
    checkpointPerCodon: probe.checkpointPerCodon,
    startRunMs: probe.startRunMs(),
    gitSpawns,
    startRunGitSpawns: probe.startRunGitSpawns(),
    events: sink.state().lastSeq,
    snapshotWrites: snapshots.count(),
    ...sizes(layout, args.mode, writer !== null),
    closeMs,
    store: args.mode === "full" ? directorySize(layout.checkpointGitDir) : { bytes: 0, files: 0 },
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    rssMb: probe.rssMb,
    setupMs,
  };
}

/**
 * Cancels the run at the first codon boundary after the deadline. A timer would not do: a run of
 * scripted codons chains promises and synchronous writes and may never yield to the timers phase.
 */
function deadlineListener(deadlineMs: number | undefined, cancel: AbortController): EventListener {
  const at = deadlineMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + deadlineMs;
  return (event) => {
    if (event.type === "codon.completed" && !cancel.signal.aborted && performance.now() > at) cancel.abort();
  };
}

/** Bytes and files under a directory (the checkpoint store), recursively. */
function directorySize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { bytes, files };
}

/**
 * Counts the writes of `state.json` by watching its inode, mtime and size (it is replaced by a rename).
 * `ownMs` is the time the counting took: instrumentation, subtracted from the run's time.
 */
function snapshotCounter(path: string): { check: () => void; count: () => number; ownMs: () => number } {
  let writes = 0;
  let last = "";
  let spentMs = 0;
  return {
    check() {
      const startedAt = performance.now();
      try {
        const stat = statSync(path, { bigint: true });
        const key = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
        if (key !== last) writes++;
        last = key;
      } catch {
        // not written yet
      }
      spentMs += performance.now() - startedAt;
    },
    count: () => writes,
    ownMs: () => spentMs,
  };
}

function sizes(layout: ExecutionLayout, mode: EngineMode, journaled: boolean) {
  const sizeOf = (path: string): number => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return {
    journalBytes: journaled ? sizeOf(layout.eventsPath) : 0,
    snapshotBytes: mode === "memory" ? 0 : sizeOf(layout.statePath),
  };
}
