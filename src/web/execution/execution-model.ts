import type { CodonEndReasons, DataOf, JournaledEvent } from "../../events/index.ts";

/**
 * What the execution page shows, folded from the journal one event at a time. The model is mutated in
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
  | { readonly kind: "completed" | "failed" | "aborted"; readonly cause: string | undefined };

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
  outcome: Outcome = { kind: "none" };
  runCount = 0;
  totalCost = 0;
  totalTokens = 0;
  lastSeq = 0;
  budget: BudgetSummary | undefined;
  rollback: RollbackView | undefined;
  runningCodon: string | undefined;
  /** The last fatal error or failure message: the cause of a failed run. */
  #lastProblem: string | undefined;
  readonly #toolItems = new Map<string, Extract<StreamItem, { kind: "tool" }>>();

  apply(event: JournaledEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.#fold(event);
    const data = event.data as { codonId?: unknown };
    const touched = typeof data.codonId === "string" ? data.codonId : this.runningCodon;
    const codon = touched === undefined ? undefined : this.codons.get(touched);
    if (codon !== undefined) codon.version += 1;
  }

  #fold(event: JournaledEvent): void {
    switch (event.type) {
      case "state.transition":
        this.#transition(event.data);
        return;
      case "codon.started":
        this.#started(event.data);
        return;
      case "codon.completed":
        this.#completed(event.data);
        return;
      case "token.usage":
        this.#usage(event.data);
        return;
      case "assistant.action":
        this.#action(event.seq, event.data);
        return;
      case "tool.result":
        this.#toolResult(event.data);
        return;
      case "file.updated":
        this.#file(event.seq, event.data);
        return;
      case "loop.iteration.completed":
        this.#iteration(event.data);
        return;
      case "budget.summary":
        this.budget = event.data;
        return;
      case "server.idle":
        if (event.data.reason === "codon-completed")
          this.outcome = { kind: "waiting", message: event.data.message };
        return;
      case "error":
        if (event.data.fatal) this.#lastProblem = event.data.message;
        return;
      case "info":
        if (event.data.message.startsWith("Run stopped")) this.#lastProblem = event.data.message;
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
        return;
      default:
        return;
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
      stream: [],
      files: new Map(),
    };
    this.codons.set(id, codon);
    this.timeline.push({ kind: "codon", codon });
    return codon;
  }

  #transition(data: DataOf<"state.transition">): void {
    this.totalCost = data.resultingState.totalCost;
    this.runCount = data.resultingState.runCount;
    const payload = data.transition.data;
    switch (data.transitionType) {
      case "RunStarted":
        this.outcome = { kind: "running" };
        this.#lastProblem = undefined;
        return;
      case "RunCompleted":
        this.outcome = { kind: "completed", cause: "Every codon completed" };
        this.runningCodon = undefined;
        return;
      case "RunFailed": {
        const aborted = payload.reason === "aborted";
        this.outcome = { kind: aborted ? "aborted" : "failed", cause: this.#lastProblem };
        this.runningCodon = undefined;
        return;
      }
      case "CodonTransitioned": {
        if (data.codonId === undefined) return;
        const codon = this.codon(data.codonId);
        if (typeof payload.status === "string") codon.status = payload.status;
        if (typeof payload.attempt === "number") codon.attempt = payload.attempt;
        if (codon.status === "running") this.runningCodon = codon.id;
        return;
      }
      default:
        return;
    }
  }

  #started(data: DataOf<"codon.started">): void {
    const codon = this.codon(data.codonId, data.codonName);
    codon.name = data.codonName;
    codon.attempt = data.attempt ?? codon.attempt;
  }

  #completed(data: DataOf<"codon.completed">): void {
    const codon = this.codon(data.codonId);
    codon.status = data.success ? "completed" : "failed";
    codon.durationMs = data.duration;
    codon.cost = data.cost;
    codon.endReasons = data.endReasons;
    codon.failure = data.failureReason?.message;
    if (data.failureReason !== undefined) this.#lastProblem = `${codon.id}: ${data.failureReason.message}`;
    if (data.budgetExceeded !== undefined) {
      const { currency, limit, used } = data.budgetExceeded;
      this.#lastProblem = `${codon.id} exceeded its ${currency} budget (${used} of ${limit})`;
    }
    if (this.runningCodon === codon.id) this.runningCodon = undefined;
  }

  #usage(data: DataOf<"token.usage">): void {
    const codon = this.codon(data.codonId);
    const tokens = data.inputTokens + data.outputTokens + data.cacheCreationTokens + data.cacheReadTokens;
    codon.tokens += tokens;
    codon.cost += data.totalCost;
    this.totalTokens += tokens;
    if (data.modelId !== undefined) codon.model = data.modelId;
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

  #file(seq: number, data: DataOf<"file.updated">): void {
    const codonId = this.runningCodon;
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
