import type { CodonEndReasons, DataOf, JournaledEvent } from "../../events/index.ts";
import type { RunOutcome } from "../../events/run-outcome.ts";
import { totalTokens } from "../../events/token-usage.ts";
import type { RunCounts } from "../../journal/run-counts.ts";
import type { CodonRecord } from "../../journal/run-state.ts";
import { RunViewFold, type RunViewSnapshot } from "../../journal/run-view.ts";
import { codonPositionText, leftUndoneText, tokensReported } from "../../journal/run-words.ts";
import { AttemptBars } from "./attempt-bars.ts";

/**
 * What the execution page shows, folded from the journal one event at a time: the run view every face
 * reads (`journal/run-view.ts`: codon statuses, attempts, cost, tokens, counts, the outcome and its
 * cause) plus what only the page shows (each codon's stream and files). The model is mutated in
 * place (a 10,000-event history is folded in well under a frame's budget per batch, without copying
 * arrays per event); the page re-renders from it at most once per animation frame.
 */

export type StreamItem =
  | { readonly kind: "text"; readonly seq: number; readonly text: string }
  | { readonly kind: "thinking"; readonly seq: number; readonly text: string }
  | {
      readonly kind: "tool";
      readonly seq: number;
      readonly id: string;
      readonly name: string;
      readonly input: string;
      result?: { readonly text: string; readonly isError: boolean; readonly ms: number };
    }
  | { readonly kind: "file"; readonly seq: number; readonly path: string; readonly action: string };

export interface CodonView {
  readonly id: string;
  /** Bumped by every change, so a view of one codon re-renders only when that codon changed. */
  version: number;
  name: string;
  /** The loop iteration from a runtime id such as `step#2`; undefined outside a loop. */
  readonly iteration: number | undefined;
  status: string;
  attempt: number;
  model: string | undefined;
  durationMs: number | undefined;
  tokens: number;
  cost: number;
  endReasons: CodonEndReasons | undefined;
  failure: string | undefined;
  /** Where it stands in the run: "codon 4 of 7, iteration 2 of 3" (the run view's words). */
  position: string | undefined;
  readonly stream: StreamItem[];
  /** Paths changed by this codon, with their last action (the diff stats of its checkpoint). */
  readonly files: Map<string, string>;
}

export interface IterationView {
  readonly loopId: string;
  readonly iteration: number;
  readonly durationMs: number;
  readonly tokens: number;
  readonly cost: number;
  readonly isFinal: boolean;
  readonly end: string | undefined;
}

export type TimelineEntry =
  | { readonly kind: "codon"; readonly codon: CodonView }
  | { readonly kind: "iteration"; readonly iteration: IterationView };

export type Outcome =
  | { readonly kind: "none" }
  | { readonly kind: "running" }
  | { readonly kind: "waiting"; readonly message: string }
  | { readonly kind: RunOutcome; readonly cause: string | undefined };

export type BudgetSummary = DataOf<"budget.summary">;

export interface RollbackView {
  readonly phase: "started" | "completed";
  readonly codonId: string;
  readonly checkpoint: string;
  readonly message: string;
}

export class ExecutionModel {
  readonly timeline: TimelineEntry[] = [];
  readonly codons = new Map<string, CodonView>();
  /** Codon attempts and cumulative cost against wall time, for the attempt strip. */
  readonly attempts = new AttemptBars();
  #run = new RunViewFold();
  /** Older events may be loaded (history paging): the page offers to. */
  hasOlder = false;
  rollback: RollbackView | undefined;
  readonly #toolItems = new Map<string, Extract<StreamItem, { kind: "tool" }>>();

  get lastSeq(): number {
    return this.#run.lastSeq;
  }

  /** How the run stands: ended (with its cause), waiting for a command, running, or not started. */
  get outcome(): Outcome {
    const { ending, activity } = this.#run.view();
    if (ending !== undefined) return { kind: ending.outcome, cause: ending.cause };
    if (activity.parked !== undefined) return { kind: "waiting", message: activity.parked.message };
    return activity.live ? { kind: "running" } : { kind: "none" };
  }

  get counts(): RunCounts {
    return this.#run.view().counts;
  }

  /** What a spent run ceiling left undone, in words; undefined when nothing was. */
  get undone(): string | undefined {
    return leftUndoneText(this.#run.view().state.codons);
  }

  get runCount(): number {
    return this.#run.view().state.runs.length;
  }

  get totalCost(): number {
    return this.#run.view().state.totals.cost;
  }

  /** Whether any agent reported token usage: unknown is not zero (`tokensReported`). */
  get tokensReported(): boolean {
    return tokensReported(this.#run.view().costSource);
  }

  get totalTokens(): number {
    return totalTokens(this.#run.view().state.totals);
  }

  get budget(): BudgetSummary | undefined {
    return this.#run.view().budget;
  }

  /** When the live (or last) run started, ms since the epoch. */
  get runStartedAt(): number | undefined {
    return this.#run.view().activity.runStartedAt;
  }

  /** When the last run ended, ms since the epoch; undefined while it runs. */
  get runEndedAt(): number | undefined {
    return this.#run.view().ending?.at;
  }

  get runningCodon(): string | undefined {
    return this.#run.view().activity.running?.id;
  }

  /** Moves on whenever the checkpoints may have changed: the page asks for the list again then. */
  get checkpointEpoch(): number {
    return this.#run.view().checkpointEpoch;
  }

  /**
   * Starts from the run view a page of history came with (history paging): the run's figures are the
   * view's, and the page's events, applied next, fill in the codons they touch. Before any event.
   */
  seed(view: RunViewSnapshot | undefined, hasOlder: boolean): void {
    if (view !== undefined) this.#run = RunViewFold.restore(view);
    this.hasOlder = hasOlder;
  }

  /**
   * An older page: its codons and loop iterations go before those shown, and the streams of codons
   * already shown get their earlier items. The run's figures do not move (the view has them all); the
   * older events are folded apart, only to place their stream items.
   */
  prependOlder(events: readonly JournaledEvent[], hasOlder: boolean): void {
    const older = new ExecutionModel();
    for (const event of events) older.apply(event);
    const placed: TimelineEntry[] = [];
    for (const entry of older.timeline) {
      if (entry.kind === "iteration") {
        placed.push(entry);
        continue;
      }
      const shown = this.codons.get(entry.codon.id);
      if (shown === undefined) {
        this.codons.set(entry.codon.id, entry.codon);
        this.#syncRecord(entry.codon);
        placed.push(entry);
        continue;
      }
      shown.stream.unshift(...entry.codon.stream);
      for (const [path, action] of entry.codon.files)
        if (!shown.files.has(path)) shown.files.set(path, action);
      shown.version += 1;
    }
    this.timeline.unshift(...placed);
    this.hasOlder = hasOlder;
  }

  apply(event: JournaledEvent): void {
    const runningBefore = this.runningCodon;
    if (!this.#run.apply(event)) return;
    this.attempts.apply(event);
    this.#fold(event, runningBefore);
    const data = event.data as { codonId?: unknown };
    const touched = typeof data.codonId === "string" ? data.codonId : runningBefore;
    const codon = touched === undefined ? undefined : this.codons.get(touched);
    if (codon !== undefined) {
      this.#syncRecord(codon);
      codon.version += 1;
    }
  }

  #fold(event: JournaledEvent, running: string | undefined): void {
    switch (event.type) {
      case "codon.started": {
        const codon = this.codon(event.data.codonId, event.data.codonName);
        codon.name = event.data.codonName;
        // Its place is fixed once it started (a walk over the codons: once per attempt, not per event).
        codon.position = codonPositionText(codon.id, this.#run.view());
        return;
      }
      case "token.usage":
        if (event.data.modelId !== undefined) this.codon(event.data.codonId).model = event.data.modelId;
        return;
      case "codon.completed":
        this.codon(event.data.codonId).failure = event.data.failureReason?.message;
        return;
      case "assistant.action":
        this.#action(event.seq, event.data);
        return;
      case "tool.result":
        this.#toolResult(event.data);
        return;
      case "file.updated":
        this.#file(event.seq, event.data, running);
        return;
      case "loop.iteration.completed":
        this.#iteration(event.data);
        return;
      case "rollback.started":
        this.rollback = {
          phase: "started",
          codonId: event.data.toCodon,
          checkpoint: event.data.toCheckpoint,
          message: `Rolling back to ${event.data.toCodon}`,
        };
        return;
      case "rollback.completed":
        this.rollback = {
          phase: "completed",
          codonId: event.data.codonId,
          checkpoint: event.data.checkpoint,
          message: `Rolled back to ${event.data.codonName} (${event.data.checkpointType} checkpoint ${event.data.checkpoint.slice(0, 10)})`,
        };
        this.#markRolledBack();
        return;
      case "state.transition":
        if (event.data.codonId !== undefined) this.codon(event.data.codonId);
        return;
      default:
        return;
    }
  }

  /** The codon's figures as the run view has them (its record covers every attempt). */
  #syncRecord(codon: CodonView): void {
    const record = this.#record(codon.id);
    if (record === undefined) return;
    codon.status = record.status;
    codon.attempt = Math.max(1, record.attempts + (isActive(record) ? 1 : 0));
    codon.durationMs = record.endedAt === null && record.durationMs === 0 ? undefined : record.durationMs;
    codon.cost = record.cost + record.runningCost;
    const t = record.tokens;
    codon.tokens = t.input + t.output + t.cacheCreation + t.cacheRead;
    codon.endReasons = record.endReasons ?? undefined;
  }

  #record(id: string): CodonRecord | undefined {
    const { codons } = this.#run.view().state;
    for (let i = codons.length - 1; i >= 0; i -= 1) if (codons[i]?.id === id) return codons[i];
    return undefined;
  }

  /** Codons a rollback undid keep their stream on the page, marked as rolled back. */
  #markRolledBack(): void {
    const kept = new Set(this.#run.view().state.codons.map((record) => record.id));
    for (const codon of this.codons.values()) {
      if (kept.has(codon.id) || codon.status === "rolled-back") continue;
      codon.status = "rolled-back";
      codon.version += 1;
    }
  }

  codon(id: string, name = id): CodonView {
    const known = this.codons.get(id);
    if (known !== undefined) return known;
    const hash = /#(\d+)$/.exec(id);
    const codon: CodonView = {
      id,
      version: 0,
      name,
      iteration: hash?.[1] === undefined ? undefined : Number(hash[1]),
      status: "pending",
      attempt: 1,
      model: undefined,
      durationMs: undefined,
      tokens: 0,
      cost: 0,
      endReasons: undefined,
      failure: undefined,
      position: undefined,
      stream: [],
      files: new Map(),
    };
    this.codons.set(id, codon);
    this.timeline.push({ kind: "codon", codon });
    return codon;
  }

  #action(seq: number, data: DataOf<"assistant.action">): void {
    const codon = this.codon(data.codonId);
    if (data.action === "tool_use") {
      const item = {
        kind: "tool" as const,
        seq,
        id: data.toolUseId ?? String(seq),
        name: data.toolName ?? data.content,
        input: JSON.stringify(data.toolInput ?? {}, null, 2),
      };
      this.#toolItems.set(item.id, item);
      codon.stream.push(item);
      return;
    }
    codon.stream.push({ kind: data.action === "thinking" ? "thinking" : "text", seq, text: data.content });
  }

  #toolResult(data: DataOf<"tool.result">): void {
    const item = this.#toolItems.get(data.toolUseId);
    if (item === undefined) return;
    item.result = { text: data.result, isError: data.isError, ms: data.executionTimeMs };
    this.#toolItems.delete(data.toolUseId);
  }

  #file(seq: number, data: DataOf<"file.updated">, codonId: string | undefined): void {
    if (codonId === undefined) return;
    const codon = this.codon(codonId);
    codon.files.set(data.path, data.action);
    codon.stream.push({ kind: "file", seq, path: data.path, action: data.action });
  }

  #iteration(data: DataOf<"loop.iteration.completed">): void {
    this.timeline.push({
      kind: "iteration",
      iteration: {
        loopId: data.loopId,
        iteration: data.iteration,
        durationMs: data.durationMs,
        tokens: data.tokensUsed,
        cost: data.costUsd,
        isFinal: data.isFinal,
        end: data.terminationReason ?? data.endCause,
      },
    });
  }
}

function isActive(record: CodonRecord): boolean {
  return record.status !== "completed" && record.status !== "failed" && record.status !== "skipped";
}

/** Files created, modified and deleted by a codon: the diff stats shown with its checkpoint. */
export function diffStats(codon: CodonView | undefined): {
  created: number;
  modified: number;
  deleted: number;
} {
  const stats = { created: 0, modified: 0, deleted: 0 };
  for (const action of codon?.files.values() ?? []) {
    if (action === "created" || action === "modified" || action === "deleted") stats[action] += 1;
  }
  return stats;
}
