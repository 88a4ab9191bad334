import type { DataOf, JournaledEvent } from "../events/events.ts";
import { type PlanSize, planSizeOf } from "../events/plan-size.ts";
import type { RunOutcome } from "../events/run-outcome.ts";
import { IDLE_ACTIVITY, nextActivity, type RunActivity } from "./run-activity.ts";
import { countCodons, type RunCounts } from "./run-counts.ts";
import type { RunState } from "./run-state.ts";
import { RunStateStore } from "./run-state-store.ts";

/**
 * The run view: a run's events folded once into what every face shows. It is the journal reducer's
 * state (codon rows with status, attempts, durations, tokens, cost and end reasons; loops; runs;
 * totals) plus what the faces need beyond it: the live activity, the latest budget summary, whether
 * the cost is simulated, and how the last run ended and why. The headless progress and summary, the
 * TUI, `--attach`, the web page and the server's status all read it, so a number two faces show is
 * computed once. Browser-safe: it imports only the event vocabulary and the reducer.
 */

/** Which agents reported the run's cost: the scripted agent's figures are simulated, not spent. */
export type CostSource = "none" | "real" | "simulated" | "mixed";

export interface RunEnding {
  readonly outcome: RunOutcome;
  /** Why, in the runtime's words: the engine's ending message, else the last fatal problem seen. */
  readonly cause: string | undefined;
  /** From the run's start to its end, by the events' timestamps; undefined without the start. */
  readonly durationMs: number | undefined;
  /** The ending event's timestamp, ms since the epoch. */
  readonly at: number;
}

export interface RunView {
  readonly state: RunState;
  readonly counts: RunCounts;
  readonly activity: RunActivity;
  /** How the latest run ended; undefined while it runs or before any run. */
  readonly ending: RunEnding | undefined;
  readonly budget: DataOf<"budget.summary"> | undefined;
  readonly costSource: CostSource;
  /** Codons during which the read-only data source changed, in order, once each. */
  readonly dataSourceChangedBy: readonly string[];
  /** Bumped by every event that may change the checkpoints (a codon ended, a rollback, a run ended). */
  readonly checkpointEpoch: number;
  /** The latest run's plan size (from its `RunStarted`); undefined before it, or in older journals. */
  readonly planSize: PlanSize | undefined;
}

/**
 * A run view as it stood after event `seq`, with what the fold needs to go on from there: sent by the
 * run server with a page of the newest events (history paging), so a client folds those events and
 * the live ones on top instead of the whole journal. JSON-safe; `restore` reads it back.
 */
export interface RunViewSnapshot {
  readonly seq: number;
  readonly state: RunState;
  readonly activity: RunActivity;
  readonly ending?: RunEnding | undefined;
  readonly budget?: DataOf<"budget.summary"> | undefined;
  readonly costSource: CostSource;
  readonly lastProblem?: string | undefined;
  readonly dataSourceChangedBy: readonly string[];
  readonly checkpointEpoch: number;
  readonly planSize?: PlanSize | undefined;
}

const RUN_ENDINGS: Readonly<Record<string, RunOutcome>> = {
  RunCompleted: "completed",
  RunFailed: "failed",
  RunCrashed: "interrupted",
};

/** Folds events into a `RunView` in place; events at or below the last applied `seq` change nothing. */
export class RunViewFold {
  /** The reducer's state this view reads; undefined when it follows a state another fold keeps. */
  #store: RunStateStore | undefined;
  #state: RunState;
  #activity: RunActivity = IDLE_ACTIVITY;
  #ending: RunEnding | undefined;
  #budget: DataOf<"budget.summary"> | undefined;
  #costSource: CostSource = "none";
  #lastProblem: string | undefined;
  readonly #dataSourceChangedBy: string[] = [];
  #checkpointEpoch = 0;
  #planSize: PlanSize | undefined;
  #counts: RunCounts | undefined;
  #seenSeq = 0;

  /**
   * `initial` may already include events (a snapshot, or a live state handed to a listener after its
   * event): applying them again leaves the reducer's part as it is and still folds what the view adds.
   */
  constructor(initial?: RunState) {
    this.#store = new RunStateStore(initial);
    this.#state = this.#store.state;
  }

  /**
   * A view over a run state that another fold keeps current (the engine's, handed to its listeners):
   * events are not reduced a second time, only what the view adds to the state is folded here.
   */
  static following(live: RunState): RunViewFold {
    const fold = new RunViewFold();
    fold.#store = undefined;
    fold.#state = live;
    return fold;
  }

  /**
   * The fold where a copy goes on from this point: the view's part, and a copy of the reducer's state
   * that later events do not move (`RunStateStore.detached`, arrays copied, records shared).
   */
  static restore(snapshot: RunViewSnapshot): RunViewFold {
    const fold = new RunViewFold(snapshot.state);
    fold.#seenSeq = snapshot.seq;
    fold.#activity = {
      live: snapshot.activity.live,
      running: snapshot.activity.running ?? undefined,
      parked: snapshot.activity.parked ?? undefined,
      runStartedAt: snapshot.activity.runStartedAt ?? undefined,
    };
    fold.#ending = snapshot.ending ?? undefined;
    fold.#budget = snapshot.budget ?? undefined;
    fold.#costSource = snapshot.costSource;
    fold.#lastProblem = snapshot.lastProblem ?? undefined;
    fold.#dataSourceChangedBy.push(...snapshot.dataSourceChangedBy);
    fold.#checkpointEpoch = snapshot.checkpointEpoch;
    fold.#planSize = snapshot.planSize ?? undefined;
    return fold;
  }

  /** The view as it stands, unmoved by later events; only a fold that keeps its own state has one. */
  capture(): RunViewSnapshot {
    if (this.#store === undefined) throw new Error("a following view has no state of its own to capture");
    return {
      seq: this.#seenSeq,
      state: this.#store.detached(),
      activity: this.#activity,
      ending: this.#ending,
      budget: this.#budget,
      costSource: this.#costSource,
      lastProblem: this.#lastProblem,
      dataSourceChangedBy: [...this.#dataSourceChangedBy],
      checkpointEpoch: this.#checkpointEpoch,
      planSize: this.#planSize,
    };
  }

  get lastSeq(): number {
    return this.#seenSeq;
  }

  /** Applies one event; returns false when it was already applied. */
  apply(event: JournaledEvent): boolean {
    if (event.seq <= this.#seenSeq) return false;
    this.#seenSeq = event.seq;
    this.#store?.apply(event);
    this.#activity = nextActivity(this.#activity, event);
    this.#counts = undefined;
    this.#observe(event);
    return true;
  }

  /** The view now. The object is new; its `state` is live (see RunStateStore) and keeps moving. */
  view(): RunView {
    // The counts walk every codon record: computed when a face reads them, once per event at most.
    const counts = (): RunCounts => {
      this.#counts ??= countCodons(this.#state.codons);
      return this.#counts;
    };
    return {
      state: this.#state,
      get counts() {
        return counts();
      },
      activity: this.#activity,
      ending: this.#ending,
      budget: this.#budget,
      costSource: this.#costSource,
      dataSourceChangedBy: this.#dataSourceChangedBy,
      checkpointEpoch: this.#checkpointEpoch,
      planSize: this.#planSize,
    };
  }

  #observe(event: JournaledEvent): void {
    switch (event.type) {
      case "state.transition":
        this.#transition(event);
        return;
      case "token.usage":
        if (event.data.modelId !== undefined) this.#noteCostSource(event.data.modelId);
        return;
      case "codon.completed":
        this.#checkpointEpoch += 1;
        if (event.data.failureReason !== undefined)
          this.#lastProblem = `${event.data.codonId}: ${event.data.failureReason.message}`;
        return;
      case "rollback.completed":
        this.#checkpointEpoch += 1;
        this.#ending = undefined;
        return;
      case "budget.summary":
        this.#budget = event.data;
        return;
      case "error":
        if (event.data.fatal) this.#lastProblem = event.data.message;
        if (event.data.code === "data-source-changed") this.#noteDataSourceChange(event.data.codon);
        return;
      default:
        return;
    }
  }

  #transition(event: Extract<JournaledEvent, { type: "state.transition" }>): void {
    const { transitionType, transition } = event.data;
    if (transitionType === "RunStarted") {
      this.#ending = undefined;
      this.#lastProblem = undefined;
      this.#planSize = planSizeOf(transition.data);
      return;
    }
    const ended = RUN_ENDINGS[transitionType];
    if (ended === undefined) return;
    const outcome = ended === "failed" && transition.data.reason === "aborted" ? "aborted" : ended;
    const message = transition.data.message;
    const at = Date.parse(event.timestamp);
    const startedAt = this.#activity.runStartedAt;
    this.#checkpointEpoch += 1;
    this.#ending = {
      outcome,
      cause: typeof message === "string" ? message : this.#lastProblem,
      durationMs: startedAt === undefined ? undefined : Math.max(0, at - startedAt),
      at,
    };
  }

  #noteCostSource(modelId: string): void {
    const simulated = modelId === "scripted" || modelId.startsWith("scripted/");
    const source: CostSource = simulated ? "simulated" : "real";
    const known = this.#costSource;
    this.#costSource = known === "none" || known === source ? source : "mixed";
  }

  #noteDataSourceChange(codon: string | undefined): void {
    const by = codon ?? "the run";
    if (!this.#dataSourceChangedBy.includes(by)) this.#dataSourceChangedBy.push(by);
  }
}

/** Folds a whole journal (or any ordered run of events) into its view. */
export function viewOf(events: Iterable<JournaledEvent>, initial?: RunState): RunView {
  const fold = new RunViewFold(initial);
  for (const event of events) fold.apply(event);
  return fold.view();
}
