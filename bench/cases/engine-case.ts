import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { createWorkspaceHooks } from "../../src/cli/run/workspace-hooks.ts";
import type { EngineHooks, EventSink, EventStore } from "../../src/engine/index.ts";
import { createEventSink, runHank, systemClock } from "../../src/engine/index.ts";
import { createHarnessRegistry } from "../../src/harness/registry.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import type { DataOf, JournaledEvent, JournaledType } from "../../src/journal/index.ts";
import { JournalWriter, writeSnapshot } from "../../src/journal/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { type HankFixture, writeHank } from "./hank-fixture.ts";
import { loadFixture } from "./load-fixture.ts";
import { createMemoryStore } from "./memory-store.ts";
import { type Bucket, createSplitTimer, type SplitTimer } from "./split-timer.ts";
import { timedHooks } from "./timed-hooks.ts";
import { createWorkspaceFiles } from "./workspace-files.ts";

/**
 * What is persisted at each codon boundary:
 * - `memory`: nothing (events are enveloped and reduced, never written): the engine alone;
 * - `journal`: the JSONL journal and the `state.json` snapshot (fsynced), as the CLI writes them;
 * - `full`: the CLI's workspace hooks: journal, snapshot, rig-setup and completed git checkpoints.
 */
export type EngineMode = "memory" | "journal" | "full";

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
  readonly totalMs: number;
  /** Milliseconds from the previous codon.completed (or the run start) to each codon.completed. */
  readonly boundaries: number[];
  /** Exclusive milliseconds per bucket over the whole run. */
  readonly split: Readonly<Record<Bucket, number>>;
  /** Checkpoint milliseconds of each codon (rig-setup plus completed commit). */
  readonly checkpointPerCodon: number[];
  /** The startRun hook: checkpoint store init and run branch. */
  readonly startRunMs: number;
  /** Git processes over the whole run, and those of the startRun hook (store init, run branch). */
  readonly gitSpawns: number;
  readonly startRunGitSpawns: number;
  readonly events: number;
  readonly journalBytes: number;
  readonly snapshotBytes: number;
  readonly maxRssMb: number;
  readonly rssMb: number[];
  readonly setupMs: number;
}

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
  const writer = args.mode === "memory" ? null : JournalWriter.open(layout.eventsPath);
  let gitSpawns = 0;
  const probe = boundaryProbe(timer, args.rssEvery ?? 0, () => gitSpawns);
  const sink = createEventSink({
    store: timedStore(writer ?? createMemoryStore(), timer),
    listeners: [probe.listener],
  });
  const hooks = buildHooks(args.mode, {
    layout,
    hankDir,
    hank,
    sink,
    clock,
    onGit: (gitArgs) => {
      gitSpawns++;
      if (args.traceGit) process.stderr.write(`git ${gitArgs.join(" ")}\n`);
    },
  });
  const cancel = new AbortController();
  const deadline =
    args.deadlineMs === undefined ? undefined : setTimeout(() => cancel.abort("deadline"), args.deadlineMs);
  const start = performance.now();
  probe.start(start);
  const result = await runHank(
    {
      hank,
      hankDir,
      models,
      agentRoot: layout.agentRoot,
      processEnv: process.env,
      options: { headless: true },
    },
    {
      clock,
      newId: randomUUID,
      sink,
      harnesses: createHarnessRegistry({
        scripted: () => createScriptedHarness({ clock, newId: randomUUID }),
      }),
      signal: cancel.signal,
      ...(hooks !== undefined && { hooks: timedHooks(hooks, timer, probe.onStartRun) }),
    },
  );
  const totalMs = performance.now() - start;
  clearTimeout(deadline);
  writer?.close();
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
    journalBytes: writer === null ? 0 : statSync(layout.eventsPath).size,
    snapshotBytes: args.mode === "memory" ? 0 : sizeOf(layout.statePath),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    rssMb: probe.rssMb,
    setupMs,
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function timedStore(store: EventStore, timer: SplitTimer): EventStore {
  return {
    append: <T extends JournaledType>(draft: { readonly type: T; readonly data: DataOf<T> }) =>
      timer.sync("journal", () => store.append(draft)),
    appendAll: (drafts) =>
      timer.sync("journal", () =>
        store.appendAll ? store.appendAll(drafts) : drafts.map((draft) => store.append(draft)),
      ),
  };
}

interface HookSetup {
  readonly layout: ReturnType<typeof executionLayout>;
  readonly hankDir: string;
  readonly hank: ReturnType<typeof loadFixture>["hank"];
  readonly sink: EventSink;
  readonly clock: ReturnType<typeof systemClock>;
  readonly onGit: (args: readonly string[]) => void;
}

/** The hooks of each mode; `full` is exactly what `hankweave --headless` plugs into the engine. */
function buildHooks(mode: EngineMode, setup: HookSetup): EngineHooks | undefined {
  const { layout, sink } = setup;
  if (mode === "memory") return undefined;
  if (mode === "journal") {
    return {
      persist: (plan) => void writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: plan }),
    };
  }
  return createWorkspaceHooks({
    layout,
    hankDir: setup.hankDir,
    processEnv: process.env,
    sink,
    clock: setup.clock,
    checkpointer: createGitCheckpointer({
      gitDir: layout.checkpointGitDir,
      workTree: layout.agentRoot,
      clock: setup.clock,
      trace: setup.onGit,
    }),
    ignoreRigFailures: false,
    hank: setup.hank,
    overwriteOutput: false,
  });
}

/** Records the time and checkpoint cost of each codon at its `codon.completed`. */
function boundaryProbe(timer: SplitTimer, rssEvery: number, gitSpawns: () => number) {
  const boundaries: number[] = [];
  const checkpointPerCodon: number[] = [];
  const rssMb: number[] = [];
  let last = 0;
  let lastCheckpoint = 0;
  let startRun = 0;
  let startRunSpawns = 0;
  return {
    boundaries,
    checkpointPerCodon,
    rssMb,
    start(at: number) {
      last = at;
    },
    onStartRun(ms: number) {
      startRun = ms;
      startRunSpawns = gitSpawns();
      lastCheckpoint = timer.totals().checkpoint;
    },
    startRunMs: () => startRun,
    startRunGitSpawns: () => startRunSpawns,
    listener(event: JournaledEvent) {
      if (event.type !== "codon.completed") return;
      const now = performance.now();
      boundaries.push(now - last);
      last = now;
      const checkpoint = timer.totals().checkpoint;
      checkpointPerCodon.push(checkpoint - lastCheckpoint);
      lastCheckpoint = checkpoint;
      if (rssEvery > 0 && boundaries.length % rssEvery === 0) rssMb.push(process.memoryUsage.rss() / 2 ** 20);
    },
  };
}
