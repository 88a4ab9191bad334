import type { ExecutionPlan, PlannedCodon } from "../../plan/index.ts";
import type { EventSink } from "./event-sink.ts";
import type { InboxCommand, RunControl } from "./run-control.ts";

/** What the driver does at a codon boundary after reading the inbox. */
export type BoundaryDirective =
  | { readonly kind: "next" }
  /** Run this planned codon next (`start`, `redo`), finished or not. */
  | { readonly kind: "run"; readonly entry: PlannedCodon }
  | { readonly kind: "skip"; readonly entry: PlannedCodon }
  | { readonly kind: "stop"; readonly message: string };

/** What a run parked on a retriable failure does next. */
export type ParkAnswer =
  | { readonly kind: "retry" }
  | { readonly kind: "skip" }
  | { readonly kind: "stop"; readonly message: string }
  /** Nobody who could answer is attached: the failure ends the run as in a headless run. */
  | { readonly kind: "unattended" };

/** What the inbox needs to know about the run at a boundary. */
export interface BoundaryView {
  readonly plan: ExecutionPlan;
  /** The codon that would run next, if any. */
  readonly next: PlannedCodon | undefined;
  /** The codon that finished last in this run, for `redo`. */
  readonly lastRun: PlannedCodon | undefined;
  readonly isFinished: (runtimeId: string) => boolean;
}

type Verdict =
  | { readonly applied: string; readonly directive?: BoundaryDirective }
  | { readonly refused: string };

/**
 * Reads run-control commands at codon boundaries and journals what it did with each (`run.command`,
 * phase `applied` or `refused`; `received` is journaled when the command arrives). Decisions about a
 * command's meaning live here; the driver only performs the directive it gets back.
 */
export class RunInbox {
  #paused = false;

  constructor(
    private readonly control: RunControl,
    private readonly sink: EventSink,
    private readonly signal: AbortSignal,
  ) {
    control.connect((command) => this.record(command, "received", "Command received"));
  }

  /** Applies queued commands; while paused, waits for `resume`, `stop` or a cancel. */
  async atBoundary(view: BoundaryView): Promise<BoundaryDirective> {
    let announced = false;
    while (!this.signal.aborted) {
      const command = this.control.take();
      if (command !== undefined) {
        const directive = this.answer(command, this.decideAtBoundary(command, view));
        if (directive !== undefined) return directive;
        continue;
      }
      if (!this.#paused) return { kind: "next" };
      if (!announced) {
        const before = view.next === undefined ? "" : ` before codon ${view.next.runtimeId}`;
        // Paused before this run ran anything (`--no-autostart`): the reference's `startup` idle.
        const reason = view.lastRun === undefined ? "startup" : "codon-completed";
        this.idle(`Run paused${before}. Send resume to continue.`, reason);
        announced = true;
      }
      await this.control.waitForChange(this.signal);
    }
    return { kind: "next" };
  }

  /**
   * A retriable failure under `onFailure: abort` with a client attached: the run parks until a command
   * retries the codon, skips it or stops the run. The failure is already journaled.
   */
  async parkOnFailure(entry: PlannedCodon, failure: string): Promise<ParkAnswer> {
    let announced = false;
    while (!this.signal.aborted) {
      if (!this.control.hasClient) return { kind: "unattended" };
      const command = this.control.take();
      if (command !== undefined) {
        const answer = this.answerWhileParked(command, entry);
        if (answer !== undefined) return answer;
        continue;
      }
      if (!announced) {
        this.idle(`${failure}. Send retry to run it again, skip to go on without it, or stop.`);
        announced = true;
      }
      await this.control.waitForChange(this.signal);
    }
    return { kind: "stop", message: "Run cancelled" };
  }

  private decideAtBoundary(command: InboxCommand, view: BoundaryView): Verdict {
    switch (command.type) {
      case "pause":
        this.#paused = true;
        return { applied: "Run paused at the codon boundary" };
      case "resume":
        if (!this.#paused) return { refused: "The run is not paused" };
        this.#paused = false;
        return { applied: "Run resumed" };
      case "skip":
        return this.skipVerdict(command, view);
      case "redo":
        if (view.lastRun === undefined) return { refused: "No codon has run yet in this run" };
        return { applied: `Redoing codon ${view.lastRun.runtimeId}`, directive: run(view.lastRun) };
      case "start":
        return this.startVerdict(command, view);
      case "retry":
        return { refused: "No failed codon is waiting for a retry" };
      case "stop":
        return { applied: "Stopping the run", directive: { kind: "stop", message: stopMessage(command) } };
    }
  }

  private skipVerdict(command: InboxCommand, view: BoundaryView): Verdict {
    const target = command.codonId === undefined ? view.next : findByName(view.plan, command.codonId);
    if (target === undefined) {
      return { refused: command.codonId === undefined ? "No more codons to run" : unknownCodon(command) };
    }
    if (view.isFinished(target.runtimeId)) return { refused: `Codon ${target.runtimeId} has already run` };
    return { applied: `Skipping codon ${target.runtimeId}`, directive: { kind: "skip", entry: target } };
  }

  private startVerdict(command: InboxCommand, view: BoundaryView): Verdict {
    if (command.codonId === undefined) return { refused: "start needs the codon to start (codonId)" };
    const target = findByName(view.plan, command.codonId);
    if (target === undefined) return { refused: unknownCodon(command) };
    return { applied: `Starting codon ${target.runtimeId}`, directive: run(target) };
  }

  private answerWhileParked(command: InboxCommand, entry: PlannedCodon): ParkAnswer | undefined {
    const id = entry.runtimeId;
    switch (command.type) {
      case "retry":
      case "redo":
      case "resume":
        this.record(command, "applied", `Retrying codon ${id}`, id);
        return { kind: "retry" };
      case "skip":
        if (command.codonId !== undefined && findByName(undefined, command.codonId, entry) === undefined) {
          this.record(command, "refused", `Only the failed codon ${id} can be skipped now`, id);
          return undefined;
        }
        this.record(command, "applied", `Skipping failed codon ${id}`, id);
        return { kind: "skip" };
      case "stop":
        this.record(command, "applied", "Stopping the run", id);
        return { kind: "stop", message: stopMessage(command) };
      case "pause":
        this.record(command, "applied", `The run is already parked on codon ${id}`, id);
        return undefined;
      case "start":
        this.record(command, "refused", `Codon ${id} is waiting for a retry; retry, skip or stop first`, id);
        return undefined;
    }
  }

  private answer(command: InboxCommand, verdict: Verdict): BoundaryDirective | undefined {
    if ("refused" in verdict) {
      this.record(command, "refused", verdict.refused);
      return undefined;
    }
    const { directive } = verdict;
    const codonId =
      directive !== undefined && "entry" in directive ? directive.entry.runtimeId : command.codonId;
    this.record(command, "applied", verdict.applied, codonId);
    return directive;
  }

  private record(
    command: InboxCommand,
    phase: "received" | "applied" | "refused",
    message: string,
    codonId = command.codonId,
  ): void {
    this.sink.emit("run.command", {
      commandId: command.commandId,
      command: command.type,
      ...(codonId !== undefined && { codonId }),
      source: command.source,
      phase,
      message,
    });
  }

  private idle(message: string, reason: "startup" | "codon-completed" = "codon-completed"): void {
    this.sink.emit("server.idle", { reason, message });
  }
}

function run(entry: PlannedCodon): BoundaryDirective {
  return { kind: "run", entry };
}

function stopMessage(command: InboxCommand): string {
  return `Run stopped by ${command.source}`;
}

function unknownCodon(command: InboxCommand): string {
  return `Unknown codon: ${command.codonId ?? ""}`;
}

/**
 * A planned codon by runtime id (`review#2`) or, for a loop codon named by its config id, its latest
 * planned iteration. With `only`, matches that one entry or nothing.
 */
function findByName(
  plan: ExecutionPlan | undefined,
  name: string,
  only?: PlannedCodon,
): PlannedCodon | undefined {
  const entries = only !== undefined ? [only] : (plan?.entries ?? []);
  const exact = entries.find((entry) => entry.runtimeId === name);
  if (exact !== undefined) return exact;
  return entries.findLast((entry) => entry.configId === name);
}
