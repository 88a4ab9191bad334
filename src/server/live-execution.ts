import { createEventBus, type EventBus, type JournaledEvent, readSince } from "../journal/index.ts";
import { IDLE_ACTIVITY, nextActivity, type RunActivity } from "../journal/run-activity.ts";
import {
  type ExecutionHandle,
  type ExecutionResult,
  openExecutionDoor,
  type RollbackTarget,
  type RunCommand,
  startExecution,
} from "../runner/index.ts";
import { type Clock, systemClock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { errorData } from "./frames.ts";
import {
  type HostEnd,
  type HostPhase,
  type LiveExecutionOptions,
  rollbackRefusal,
  runOptions,
  shutdownExitCode,
} from "./host-phase.ts";
import { rollBackServed } from "./live-rollback.ts";
import { DEFAULT_SHUTDOWN_REASON, MESSAGES } from "./protocol.ts";
import { type Notice, RunCommandTracker } from "./run-command-tracker.ts";
import { WriterSeats } from "./writer-seats.ts";

export type { HostEnd, HostPhase, LiveExecutionOptions } from "./host-phase.ts";
export type { Notice } from "./run-command-tracker.ts";

interface ActiveRun {
  readonly handle: ExecutionHandle;
  readonly cancel: AbortController;
  /** The run journaled its end (`RunCompleted`, `RunFailed`, `RunCrashed`) and is closing down. */
  finished: boolean;
  /** Settles once the host has taken the run's end (`#runEnded`). */
  settled: Promise<void>;
}

/**
 * One execution served to clients, across the runs it may take (a run, a rollback, the continuation):
 * a face over `startExecution`. Every event the runs and rollbacks journal is republished, in journal
 * order, on one bus (`events`) whose catch-up reads the execution's journal, so a client subscribes once
 * and sees every run. Commands reach the live run's inbox; what the inbox refuses is told to clients.
 */
export class LiveExecution {
  readonly events: EventBus;
  readonly ended: Promise<HostEnd>;
  readonly clock: Clock;
  readonly #options: LiveExecutionOptions;
  readonly #tracker: RunCommandTracker;
  readonly #noticeListeners = new Set<(notice: Notice) => void>();
  readonly #firstOpened: Promise<ExecutionLayout | undefined>;
  #markFirstOpened: (layout: ExecutionLayout | undefined) => void = () => undefined;
  #finish: (end: HostEnd) => void = () => undefined;
  #phase: HostPhase = "waiting";
  #status: RunActivity = IDLE_ACTIVITY;
  #run: ActiveRun | undefined;
  #layout: ExecutionLayout | undefined;
  #port: number | undefined;
  readonly #writers = new WriterSeats();
  #runsStarted = 0;
  #lastResult: ExecutionResult | undefined;
  #shutdownReason: string | undefined;
  #eventsClosed = false;

  constructor(options: LiveExecutionOptions) {
    this.#options = options;
    this.clock = options.execution.clock ?? systemClock();
    this.events = createEventBus({
      history: (afterSeq) =>
        this.#layout === undefined ? [] : readSince(this.#layout.eventsPath, afterSeq).events,
    });
    this.#tracker = new RunCommandTracker((notice) => this.broadcast(notice));
    this.#firstOpened = new Promise((resolve) => {
      this.#markFirstOpened = resolve;
    });
    this.ended = new Promise((resolve) => {
      this.#finish = resolve;
    });
    const external = options.execution.signal;
    external?.addEventListener("abort", () => this.shutdown(reasonOf(external)), { once: true });
    if (options.view !== undefined) this.#openForViewing(options.view);
  }

  /** Serves a finished (or idle) execution from its journal: ended, with nothing to run. */
  #openForViewing(layout: ExecutionLayout): void {
    this.#layout = layout;
    this.#phase = "ended";
    this.#markFirstOpened(layout);
  }

  /** Every client is read-only: the execution is only looked at (`hankweave view`). */
  get viewOnly(): boolean {
    return this.#options.view !== undefined;
  }

  get phase(): HostPhase {
    return this.#phase;
  }

  get status(): RunActivity {
    return this.#status;
  }

  get layout(): ExecutionLayout | undefined {
    return this.#layout;
  }

  /** True once `closeEvents` was called: no new subscriber is taken. */
  get eventsClosed(): boolean {
    return this.#eventsClosed;
  }

  /** Where `outputFiles` are copied (`-o`), when set. */
  get outputDirectory(): string | undefined {
    return this.#options.execution.outputDir;
  }

  /** Resolves once the first run has opened its execution (undefined when its start was refused). */
  opened(): Promise<ExecutionLayout | undefined> {
    return this.#firstOpened;
  }

  /** Starts the first run; `port` is the server's, recorded in the execution's lock. */
  start(port?: number): void {
    if (this.#phase !== "waiting") throw new Error("the execution is already started");
    this.#port = port;
    this.#startRun();
  }

  /** Hears the server's unjournaled announcements (refusals, replies, shutdown notices). */
  onNotice(listener: (notice: Notice) => void): () => void {
    this.#noticeListeners.add(listener);
    return () => this.#noticeListeners.delete(listener);
  }

  broadcast(notice: Notice): void {
    for (const listener of this.#noticeListeners) listener(notice);
  }

  /**
   * A client that can answer a parked run joins; the live run (and every later one) then parks on a
   * retriable failure instead of failing. Returns its leave function.
   */
  attachWriter(): () => void {
    return this.#writers.join();
  }

  /**
   * Set while the live run has journaled its end but is still closing down (packing checkpoints,
   * releasing the lock): a promise that settles once the host has moved on (to `ended` between runs,
   * or closing). A command that arrives meanwhile waits for it, so it meets the state its client saw
   * announced (`server.idle` follows the run's end) rather than a run that takes no more commands.
   */
  get runClosing(): Promise<void> | undefined {
    const run = this.#run;
    return run?.finished === true ? run.settled : undefined;
  }

  /** Queues a command in the live run's inbox; false when no run is live. */
  sendToRun(command: RunCommand, protocolType: string): boolean {
    if (this.#run === undefined || this.#phase !== "live") return false;
    this.#tracker.track(this.#run.handle.control.send(command), protocolType);
    return true;
  }

  /** Stops the running codon's session at once; the run ends `aborted`. False when no codon runs. */
  cancelCodon(reason: string): boolean {
    if (this.#run === undefined || this.#status.running === undefined) return false;
    this.#run.cancel.abort(reason);
    return true;
  }

  /** Between runs: starts the next run of the execution, with a command waiting in its inbox. */
  continueRun(queued?: { readonly command: RunCommand; readonly protocolType: string }): boolean {
    if (this.#phase !== "ended") return false;
    this.#phase = "live";
    this.#startRun(queued);
    return true;
  }

  /** Why a rollback cannot start now, or undefined when it can. */
  rollbackRefusal(): string | undefined {
    return rollbackRefusal(this.#phase, this.#status);
  }

  /**
   * Rolls the execution back: stops a parked run, rolls back under the execution lock, then starts the
   * continuation when `autoRestart`. The caller checked `rollbackRefusal()` first.
   */
  async rollback(target: RollbackTarget, autoRestart: boolean, source: string): Promise<void> {
    const layout = this.#layout;
    if (layout === undefined) return;
    this.#phase = "rolling-back";
    const outcome = await rollBackServed({
      layout,
      hank: this.#hankSource(),
      ...(this.#options.execution.model !== undefined && { model: this.#options.execution.model }),
      clock: this.clock,
      ...(this.#port !== undefined && { port: this.#port }),
      liveRun: this.#run?.handle,
      take: (event) => this.#take(event),
      broadcast: (notice) => this.broadcast(notice),
      request: { target, autoRestart, source },
    });
    // A refused target leaves a parked run waiting; had it ended meanwhile, the host is between runs.
    if (outcome === "kept-waiting" && this.#phase === "rolling-back" && this.#run !== undefined) {
      this.#phase = "live";
      return;
    }
    this.#afterRollback(outcome === "restart");
  }

  /** The `checkpoint.list` payload of a run (default: the current one). */
  checkpoints(runId: string | undefined) {
    const layout = this.#layout;
    if (layout === undefined) return Promise.reject(new Error("The execution is not open yet"));
    // A live run's newest checkpoints become readable by the door's reader first.
    const flushed = this.#run?.handle.flushCheckpoints() ?? Promise.resolve();
    return flushed.then(() => openExecutionDoor(layout, this.clock).checkpointList(runId));
  }

  /**
   * Stops serving: a live run's session is stopped (the run ends `aborted`), then the host ends. A
   * second shutdown forces. The exit code is 0 for the user's own reasons (`client request`, SIGINT,
   * SIGTERM) when a run was stopped, 1 for any other reason; between runs it is the last run's.
   */
  shutdown(reason: string): void {
    if (this.#phase === "closed") return;
    if (this.#phase === "closing") {
      this.forceShutdown(reason);
      return;
    }
    this.#shutdownReason = reason;
    const wasRollingBack = this.#phase === "rolling-back";
    this.#phase = "closing";
    if (this.#run !== undefined) {
      this.broadcast({ type: "info", data: { message: MESSAGES.shuttingDown } });
      this.#run.cancel.abort(reason);
    } else if (!wasRollingBack) {
      this.#endBetweenRuns(reason);
    }
  }

  /**
   * Stops republishing (a run still winding down after a force shutdown journals on, unheard) and
   * resolves once every client has been handed what was published.
   */
  closeEvents(): Promise<void> {
    this.#eventsClosed = true;
    return this.events.close();
  }

  /** Ends at once with exit code 1; a live run is cancelled and left to wind down. */
  forceShutdown(reason: string): void {
    if (this.#phase === "closed") return;
    this.#run?.cancel.abort(reason);
    this.#end({ exitCode: 1, reason, result: this.#lastResult, forced: true });
  }

  #startRun(queued?: { readonly command: RunCommand; readonly protocolType: string }): void {
    const cancel = new AbortController();
    const base = this.#options.execution;
    const first = this.#runsStarted === 0;
    this.#runsStarted += 1;
    const handle = startExecution(
      runOptions(base, {
        // Later runs continue the execution the first one opened.
        execution: first ? undefined : this.#layout?.executionDir,
        signal: cancel.signal,
        port: this.#port,
        onLayout: (layout) => {
          this.#layout = layout;
        },
      }),
    );
    this.#phase = "live";
    const run: ActiveRun = { handle, cancel, finished: false, settled: Promise.resolve() };
    this.#run = run;
    handle.events.subscribe((event) => this.#take(event), { name: "server" });
    this.#writers.follow(handle.control);
    if (queued !== undefined) this.#tracker.track(handle.control.send(queued.command), queued.protocolType);
    if (first) void handle.opened.then((layout) => this.#markFirstOpened(layout));
    run.settled = handle.done.then((result) => this.#runEnded(run, result, first));
  }

  /** Every journaled event of the execution passes here, in journal order. */
  #take(event: JournaledEvent): void {
    if (this.#run !== undefined && isRunEnd(event)) this.#run.finished = true;
    this.#status = nextActivity(this.#status, event);
    this.#tracker.observe(event);
    if (!this.#eventsClosed) this.events.publish(event);
  }

  #runEnded(run: ActiveRun, result: ExecutionResult, first: boolean): void {
    if (this.#run === run) {
      this.#writers.follow(undefined);
      this.#run = undefined;
    }
    this.#lastResult = result;
    this.#status = IDLE_ACTIVITY;
    if (this.#phase === "rolling-back" || this.#phase === "closed") return;
    if (this.#phase === "closing") {
      const reason = this.#shutdownReason ?? DEFAULT_SHUTDOWN_REASON;
      this.#end({ exitCode: shutdownExitCode(reason), reason, result, forced: false });
      return;
    }
    const startFailed = first && result.kind !== "ran";
    if (startFailed || !this.#options.stayOpen) {
      this.#end({ exitCode: result.exitCode, reason: "run ended", result, forced: false });
      return;
    }
    this.#phase = "ended";
    if (result.kind === "nothing-to-do")
      this.broadcast({ type: "error", data: errorData(MESSAGES.noMoreCodons) });
  }

  #afterRollback(restart: boolean): void {
    if (this.#phase === "closing") {
      this.#endBetweenRuns(this.#shutdownReason ?? DEFAULT_SHUTDOWN_REASON);
    } else if (this.#phase !== "rolling-back") {
      return;
    } else if (restart) {
      this.#startRun();
    } else if (this.#options.stayOpen) {
      this.#phase = "ended";
    } else {
      this.#end({ exitCode: 0, reason: "rolled back", result: this.#lastResult, forced: false });
    }
  }

  #hankSource() {
    const base = this.#options.execution;
    return { hank: base.hank, cwd: base.cwd ?? process.cwd(), env: { ...(base.env ?? process.env) } };
  }

  /** Ends with no run live: the exit code is the last run's. */
  #endBetweenRuns(reason: string): void {
    this.#end({ exitCode: this.#lastResult?.exitCode ?? 0, reason, result: this.#lastResult, forced: false });
  }

  #end(end: HostEnd): void {
    if (this.#phase === "closed") return;
    this.#phase = "closed";
    this.#markFirstOpened(undefined);
    this.#finish(end);
  }
}

function reasonOf(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : "SIGINT";
}

function isRunEnd(event: JournaledEvent): boolean {
  if (event.type !== "state.transition") return false;
  const type = event.data.transitionType;
  return type === "RunCompleted" || type === "RunFailed" || type === "RunCrashed";
}
