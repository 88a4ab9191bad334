import { rmSync } from "node:fs";
import type {
  EngineHooks,
  EngineOptions,
  EventListener,
  EventSink,
  LoopStopPredicate,
  RunControl,
  RunResult,
} from "../engine/index.ts";
import type { ValidationIssue } from "../hank/issues.ts";
import { createHarnessRegistry } from "../harness/registry.ts";
import { createScriptedHarness } from "../harness/scripted/index.ts";
import type { DataOf, EventOf, JournaledEvent, JournaledType, RunState } from "../journal/index.ts";
import { type EventBus, JournalWriter } from "../journal/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";
import {
  createRunChannels,
  drainBus,
  openRunSink,
  type RunChannels,
  reopenUnfinishedLoops,
  runWorkspace,
} from "../runner/index.ts";
import { countingIds } from "./counting-ids.ts";
import { createEventWaiters, type EventWaiters } from "./event-waiters.ts";
import { createFakeClock, type FakeClock } from "./fake-clock.ts";
import { type PreparedHank, prepareTestHank, type TestHankLayout } from "./prepare-test-hank.ts";

export interface HankTestOptions {
  /** A hank object (what hank.json parses to), or the path of a hank file or a directory with hank.json. */
  readonly hank: unknown;
  /** Files to create in the hank directory first (prompt files, rig sources), by relative path. */
  readonly files?: Readonly<Record<string, string>>;
  /** Every codon's model (the CLI's `-m`). Default `scripted`; null keeps the hank's own models. */
  readonly model?: string | null;
  /** Engine options; `headless` defaults to true. */
  readonly options?: Partial<EngineOptions>;
  /** The run's clock (engine and scripted agent). Default: a new fake clock. */
  readonly clock?: FakeClock;
  /** The runtime environment (agents get it with the HANKWEAVE_ overlay). Default: just PATH. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Cancels the run. Default: never. */
  readonly signal?: AbortSignal;
  readonly hooks?: EngineHooks;
  /** Called after every event, with the reduced state (for example to act at a given moment). */
  readonly listeners?: readonly EventListener[];
  /**
   * Continue an earlier test run, as a restarted runtime would: same workspace and journal, the state
   * it reduced to, its plan and its clock. Ids go on from there (`run-2`; sessions `s2-1`, ...). The
   * scripted agent is a new instance, so it cannot resume the earlier run's sessions.
   */
  readonly continueFrom?: HankTestRun;
  /** The plan to continue from (default: `continueFrom`'s final plan), e.g. with a loop reopened. */
  readonly plan?: ExecutionPlan;
  /** Caller loop stop rules (see `LoopStopPredicate`). */
  readonly stopRules?: readonly LoopStopPredicate[];
  /** Loop codons (config ids) that resume their own session of the previous iteration. */
  readonly continueOwnSession?: readonly string[];
}

/** A finished test run: what the engine returned, the journal, and the state the journal reduces to. */
export interface HankTestRun extends TestHankLayout {
  readonly result: RunResult;
  /** Every journaled event, in order (the same records `events.jsonl` holds). */
  readonly events: readonly JournaledEvent[];
  /** The run state reduced from the journal (`sink.state()`). */
  readonly state: RunState;
  readonly clock: FakeClock;
  readonly warnings: readonly ValidationIssue[];
  /** The payloads of the events of one type, in order. */
  data<T extends JournaledType>(type: T): DataOf<T>[];
  /** Deletes the temp directory (workspace, journal, hank copy). */
  remove(): void;
}

/** A run in progress, for tests that drive the clock while the engine runs. */
export interface RunningHankTest extends TestHankLayout {
  readonly clock: FakeClock;
  /** Grows as the engine emits. */
  readonly events: readonly JournaledEvent[];
  readonly sink: EventSink;
  /** The run's inbox: send pause, skip, redo... as a face would. */
  readonly control: RunControl;
  /** The run's event bus, for subscribers attached mid-run. */
  readonly bus: EventBus;
  /**
   * Resolves with the first journaled event of `type` that matches, at once when one was already
   * emitted. Wait for the last event before a pause (an agent's `@sleep`) before advancing the clock,
   * so the engine has caught up with the agent and armed its timers from the current time.
   */
  waitForEvent<T extends JournaledType>(type: T, match?: (event: EventOf<T>) => boolean): Promise<EventOf<T>>;
  /** Settles when the engine returns; rejects when it throws (a bug, or an event the union rejects). */
  readonly done: Promise<HankTestRun>;
  remove(): void;
}

/**
 * Starts a hank on the scripted agent and returns at once. The hank is validated first (a hank with
 * errors throws), then run in a temp directory with:
 * - a fake clock (`clock`) shared by the engine and the scripted agent: time stands still unless the
 *   test advances it (see `FakeClock`);
 * - counting ids: run `run-1`, agent sessions and tool calls `s-1`, `s-2`..., events `e-1`...;
 * - the processEnv `{ PATH }` unless `env` is given, and `headless: true` unless `options` says otherwise;
 * - a file journal opened with `validate: true`, so an event the union rejects fails the run loudly.
 */
export function startHankForTest(options: HankTestOptions): RunningHankTest {
  const env = options.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const previous = options.continueFrom;
  const prepared = prepareTestHank({
    hank: options.hank,
    ...(options.files !== undefined && { files: options.files }),
    model: options.model === undefined ? "scripted" : options.model,
    env,
    ...(previous !== undefined && { layout: layoutOf(previous) }),
  });
  const clock = options.clock ?? previous?.clock ?? createFakeClock();
  const runNumber = (previous?.state.runs.length ?? 0) + 1;
  const remove = (): void => rmSync(prepared.dir, { recursive: true, force: true });
  const channels = createChannels(prepared.journalPath, runNumber);
  const { writer, sink, events, waiters } = openJournal(
    prepared,
    clock,
    previous,
    channels,
    options.listeners,
  );
  const harness = createScriptedHarness({
    clock,
    newId: countingIds(runNumber === 1 ? "s" : `s${runNumber}`),
  });
  // As a restarted runtime does: loops that ended unfinished (a failure, a spent ceiling) reopen.
  const plan =
    options.plan ??
    (previous === undefined
      ? undefined
      : reopenUnfinishedLoops(prepared.hank, previous.result.plan, previous.state));
  const running = runWorkspace({
    hank: prepared.hank,
    hankDir: prepared.hankDir,
    models: prepared.models,
    agentRoot: prepared.agentRoot,
    env,
    options: { headless: true, ...options.options },
    ...(plan !== undefined && { plan }),
    ...(options.stopRules !== undefined && { stopRules: options.stopRules }),
    // Each codon its own session group: it resumes itself of the previous iteration.
    ...(options.continueOwnSession !== undefined && {
      continueOwnSession: Object.fromEntries(options.continueOwnSession.map((id) => [id, id])),
    }),
    clock,
    newId: countingIds("run", runNumber - 1),
    sink,
    harnesses: createHarnessRegistry({ scripted: () => harness }),
    channels,
    signal: options.signal ?? new AbortController().signal,
    ...(options.hooks !== undefined && { hooks: options.hooks }),
  });
  const done = running
    .then(async (result) => {
      await drainBus(channels.events);
      return finished(prepared, result, events, sink.state(), clock, remove);
    })
    .finally(() => writer.close());
  const { control, events: bus } = channels;
  return {
    ...layoutOf(prepared),
    clock,
    events,
    sink,
    control,
    bus,
    waitForEvent: waiters.waitFor,
    done,
    remove,
  };
}

/** The run's inbox (counting command ids `c-1`...) and its event bus over the test journal. */
function createChannels(journalPath: string, runNumber: number): RunChannels {
  return createRunChannels(countingIds(runNumber === 1 ? "c" : `c${runNumber}`), () => journalPath);
}

interface TestJournal {
  readonly writer: JournalWriter;
  readonly sink: EventSink;
  /** Every event of this run, in order, as the sink emits it. */
  readonly events: JournaledEvent[];
  readonly waiters: EventWaiters;
}

/** The run's journal file (validated on append, timed by the fake clock) and the sink over it. */
function openJournal(
  layout: TestHankLayout,
  clock: FakeClock,
  previous: HankTestRun | undefined,
  channels: RunChannels,
  listeners: readonly EventListener[] = [],
): TestJournal {
  const writer = JournalWriter.open(layout.journalPath, {
    validate: true,
    now: () => new Date(clock.now()),
    newId: countingIds("e", previous?.state.lastSeq ?? 0),
  });
  const events: JournaledEvent[] = [];
  const waiters = createEventWaiters(events);
  const record: EventListener = (event) => {
    events.push(event);
    waiters.notify(event);
  };
  const sink = openRunSink({
    store: writer,
    ...(previous !== undefined && { initialState: previous.state }),
    listeners: [record, ...listeners],
    channels,
  });
  return { writer, sink, events, waiters };
}

/** Runs a hank on the scripted agent to its end (see `startHankForTest`); the temp dir is removed on a throw. */
export async function runHankForTest(options: HankTestOptions): Promise<HankTestRun> {
  const running = startHankForTest(options);
  try {
    return await running.done;
  } catch (caught) {
    running.remove();
    throw caught;
  }
}

function layoutOf(prepared: TestHankLayout): TestHankLayout {
  const { dir, hankDir, agentRoot, journalPath } = prepared;
  return { dir, hankDir, agentRoot, journalPath };
}

function finished(
  prepared: PreparedHank,
  result: RunResult,
  events: readonly JournaledEvent[],
  state: RunState,
  clock: FakeClock,
  remove: () => void,
): HankTestRun {
  const all = [...events];
  return {
    ...layoutOf(prepared),
    result,
    events: all,
    state,
    clock,
    warnings: prepared.warnings,
    data: <T extends JournaledType>(type: T): DataOf<T>[] =>
      all.filter((event) => event.type === type).map((event) => event.data as DataOf<T>),
    remove,
  };
}
