import type { EventDraftOf, EventSink } from "../engine/index.ts";
import type { DataOf, JournaledEvent } from "../events/index.ts";
import type { Clock } from "../util/clock.ts";
import { type Batcher, createBatcher } from "./batcher.ts";
import { Conversation } from "./conversation.ts";
import { decideAfterFailure, type TriggerFailure } from "./failure-policy.ts";
import type { SentinelDefinition } from "./load-sentinels.ts";
import type { SentinelModelResult } from "./sentinel-model.ts";
import type { TemplateContext } from "./templates.ts";
import { createTriggerMatcher, type TriggerMatcher } from "./trigger-matcher.ts";

/** Triggers waiting beyond this are dropped, oldest first, with a warning. */
export const MAX_QUEUED_TRIGGERS = 100;

/** Model call defaults, as the reference runtime sets them. */
const DEFAULT_PARAMS = { temperature: 0, maxOutputTokens: 8192, maxRetries: 2 } as const;

interface Trigger {
  readonly events: readonly JournaledEvent[];
  readonly queuedAt: number;
}

export interface CodonFacts {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

type UnloadReason = DataOf<"sentinel.unloaded">["reason"];
type ErrorType = DataOf<"sentinel.error">["errorType"];

/**
 * One sentinel loaded for one codon. Events come in through `offer` (synchronously, from the event
 * bus); matches become triggers by the execution strategy; triggers run one at a time, in order, each
 * one model call: render the prompts, call, check a structured reply, write the outputs, journal
 * `sentinel.output` (or `sentinel.error`). Nothing is emitted from inside `offer`: triggers run on
 * later microtasks, so the sentinel's events never interleave with the event that caused them.
 */
export class RunningSentinel {
  readonly #def: SentinelDefinition;
  readonly #codon: CodonFacts;
  readonly #clock: Clock;
  readonly #sink: Pick<EventSink, "emit" | "emitAll">;
  readonly #startTime: number;
  readonly #matcher: TriggerMatcher;
  readonly #batcher: Batcher;
  readonly #conversation: Conversation | undefined;
  readonly #abort = new AbortController();
  #queue: Trigger[] = [];
  #pump: Promise<void> | undefined;
  #unloaded = false;
  #triggerNumber = 0;
  #calls = 0;
  #answered = 0;
  #failures = 0;
  #cost = 0;

  constructor(
    def: SentinelDefinition,
    codon: CodonFacts,
    clock: Clock,
    sink: Pick<EventSink, "emit" | "emitAll">,
  ) {
    this.#def = def;
    this.#codon = codon;
    this.#clock = clock;
    this.#sink = sink;
    this.#startTime = clock.now();
    this.#matcher = createTriggerMatcher(def.config.trigger);
    this.#batcher = createBatcher(def.config.execution, clock, (events) => this.#enqueue(events));
    const conversational = def.config.conversational;
    this.#conversation = conversational && new Conversation(conversational.trimmingStrategy);
  }

  get id(): string {
    return this.#def.config.id;
  }

  /** Dollars spent by this sentinel's calls so far. */
  get cost(): number {
    return this.#cost;
  }

  offer(event: JournaledEvent): void {
    if (this.#unloaded) return;
    const matched = this.#matcher.match(event);
    if (matched !== undefined) this.#batcher.add(matched);
  }

  /** Sends what the strategy holds back as a trigger, then waits until every queued trigger has run. */
  async drain(): Promise<void> {
    if (this.#unloaded) return;
    this.#batcher.flush();
    while (this.#pump !== undefined) await this.#pump;
  }

  /**
   * Stops the sentinel: what waits is dropped and the call in flight aborted (after a drain there is
   * neither). Returns its `sentinel.unloaded` for the caller to journal with the others in one write;
   * undefined when it had stopped already or does not report its lifecycle.
   */
  stop(reason: UnloadReason): EventDraftOf | undefined {
    return this.#stop(reason);
  }

  /** Resolves once the call in flight, if any, has settled; nothing of this sentinel follows. */
  async settled(): Promise<void> {
    while (this.#pump !== undefined) await this.#pump;
  }

  #stop(
    reason: UnloadReason,
    errorType?: DataOf<"sentinel.unloaded">["errorType"],
  ): EventDraftOf | undefined {
    if (this.#unloaded) return undefined;
    this.#unloaded = true;
    this.#batcher.stop();
    this.#queue = [];
    this.#abort.abort();
    if (!this.#def.reporting.lifecycle) return undefined;
    const data: DataOf<"sentinel.unloaded"> = {
      sentinelId: this.id,
      codonId: this.#codon.id,
      reason,
      ...(errorType !== undefined && { errorType }),
      finalCost: this.#cost,
      llmCallCount: this.#answered,
    };
    return { type: "sentinel.unloaded", data };
  }

  #enqueue(events: readonly JournaledEvent[]): void {
    if (this.#queue.length >= MAX_QUEUED_TRIGGERS) {
      this.#queue.shift();
      this.#sink.emit("error", {
        message: `Sentinel ${this.id} dropped its oldest queued trigger: ${MAX_QUEUED_TRIGGERS} were waiting`,
        codon: this.#codon.id,
        fatal: false,
        severity: "warning",
        context: "sentinel",
      });
    }
    this.#queue.push({ events, queuedAt: this.#clock.now() });
    this.#pump ??= this.#runQueue();
  }

  async #runQueue(): Promise<void> {
    // Leave the event delivery that queued the trigger before anything is emitted.
    await Promise.resolve();
    for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
      await this.#execute(next);
    }
    this.#pump = undefined;
  }

  async #execute(trigger: Trigger): Promise<void> {
    const { config } = this.#def;
    const triggerNumber = ++this.#triggerNumber;
    if (this.#def.reporting.triggers) {
      this.#emit("sentinel.triggered", {
        triggerNumber,
        strategy: config.execution.strategy,
        eventCount: trigger.events.length,
        queueSize: this.#queue.length,
      });
    }
    const context = this.#templateContext(trigger, triggerNumber);
    const user = this.#def.user.render(context);
    if (!user.ok) return this.#fail({ kind: "template" }, "template-render-failed", user.message, false);
    const system = this.#def.system?.render(context);
    if (system !== undefined && !system.ok)
      return this.#fail({ kind: "template" }, "template-render-failed", system.message, false);
    const result = await this.#call(system?.text, user.text);
    if (this.#unloaded) return;
    if (!result.ok)
      return this.#fail(
        { kind: "model", retriable: result.retriable },
        "llm-call-failed",
        result.message,
        result.retriable,
      );
    this.#answered += 1;
    this.#cost += result.costUsd;
    this.#accept(result, user.text, triggerNumber, trigger.events.length);
  }

  #templateContext(trigger: Trigger, triggerNumber: number): TemplateContext {
    const { config } = this.#def;
    return {
      events: trigger.events,
      codon: { ...this.#codon, startTime: new Date(this.#startTime) },
      world: { currentTime: new Date(trigger.queuedAt) },
      sentinel: { id: config.id, name: config.name, triggerNumber },
    };
  }

  /** One model call. A model that throws (a bug) fails the trigger instead of the codon it observes. */
  async #call(system: string | undefined, user: string): Promise<SentinelModelResult> {
    const instruction = this.#def.structured?.instruction;
    const fullSystem = [system, instruction].filter((part) => part !== undefined && part !== "").join("\n\n");
    const own = this.#def.config.llmParams;
    this.#calls += 1;
    const request = {
      ...(fullSystem !== "" && { system: fullSystem }),
      messages: [...(this.#conversation?.messages() ?? []), { role: "user", content: user }],
      temperature: own?.temperature ?? DEFAULT_PARAMS.temperature,
      maxOutputTokens: own?.maxOutputTokens ?? DEFAULT_PARAMS.maxOutputTokens,
      maxRetries: own?.maxRetries ?? DEFAULT_PARAMS.maxRetries,
      callNumber: this.#calls,
      signal: this.#abort.signal,
    } as const;
    try {
      return await this.#def.model.call(request);
    } catch (caught) {
      return { ok: false, message: `the model call threw: ${String(caught)}`, retriable: true };
    }
  }

  /** A reply: checked when structured, written, journaled, and remembered by a conversation. */
  #accept(
    result: Extract<SentinelModelResult, { ok: true }>,
    prompt: string,
    triggerNumber: number,
    eventCount: number,
  ): void {
    const spend = {
      cost: result.costUsd,
      tokens: { input: result.usage.input, output: result.usage.output },
    };
    const { structured } = this.#def;
    let content: string | object = result.text;
    if (structured !== undefined) {
      const accepted = structured.accept(result.text);
      if (!accepted.ok) {
        const message = `structured output rejected: ${accepted.message}`;
        this.#fail({ kind: "rejected" }, "llm-call-failed", message, true, spend);
        return;
      }
      content = accepted.value;
    }
    const writeProblem = this.#write(content);
    // Always journaled: the output's cost belongs to the run's spend, whatever the reporting says.
    this.#emit("sentinel.output", {
      triggerNumber,
      outputType: structured === undefined ? "text" : "structured",
      content: content as DataOf<"sentinel.output">["content"],
      ...spend,
      eventCount,
    });
    this.#conversation?.add(
      prompt,
      typeof content === "string" ? content : JSON.stringify(content),
      result.usage.output,
    );
    if (writeProblem !== undefined) this.#fail({ kind: "write" }, "file-write-failed", writeProblem, true);
    else this.#failures = 0;
  }

  #write(content: string | object): string | undefined {
    try {
      this.#def.outputs.write(content);
      return undefined;
    } catch (caught) {
      return `outputs of sentinel ${this.id} could not be written: ${caught instanceof Error ? caught.message : String(caught)}`;
    }
  }

  #fail(
    failure: TriggerFailure,
    errorType: ErrorType,
    message: string,
    retriable: boolean,
    spend?: Pick<DataOf<"sentinel.error">, "cost" | "tokens">,
  ): void {
    this.#failures += 1;
    if (spend !== undefined) this.#cost += spend.cost ?? 0;
    // A rejected reply is journaled even when errors are not reported: its cost counts.
    if (this.#def.reporting.errors || spend !== undefined) {
      this.#emit("sentinel.error", {
        errorType,
        message,
        retriable,
        consecutiveFailureCount: this.#failures,
        ...spend,
      });
    }
    const verdict = decideAfterFailure(failure, this.#failures, this.#def.config);
    if (verdict.kind !== "unload") return;
    const unloaded = this.#stop(verdict.reason, verdict.errorType);
    if (unloaded !== undefined) this.#sink.emitAll([unloaded]);
  }

  #emit<T extends "sentinel.triggered" | "sentinel.output" | "sentinel.error">(
    type: T,
    data: Omit<DataOf<T>, "sentinelId" | "codonId">,
  ): void {
    this.#sink.emit(type, { sentinelId: this.id, codonId: this.#codon.id, ...data } as DataOf<T>);
  }
}
