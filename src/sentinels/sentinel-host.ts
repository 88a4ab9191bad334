import { join } from "node:path";
import type { CodonContext, EventDraftOf, EventSink, SentinelHost, SentinelLoad } from "../engine/index.ts";
import { category, type DataOf, type JournaledEvent } from "../events/index.ts";
import { resolveModel } from "../hank/models/index.ts";
import type { SentinelConfig } from "../hank/schema/index.ts";
import type { Clock } from "../util/clock.ts";
import {
  type LoadContext,
  type LoadProblem,
  loadCodonSentinels,
  type SentinelDefinition,
} from "./load-sentinels.ts";
import { createPiAiLoader, createPiSentinelModel, type PiAiLoader } from "./pi-sentinel-model.ts";
import { RunningSentinel } from "./running-sentinel.ts";
import { createScriptedSentinelModel } from "./scripted-sentinel-model.ts";
import type { SentinelModel } from "./sentinel-model.ts";

export interface SentinelHostOptions {
  readonly hankDir: string;
  /** The agent's working directory: output paths with a `/` are relative to it. */
  readonly agentRoot: string;
  /** Where bare output names and default logs go; default `<agentRoot>/../.hankweave/sentinels/outputs`. */
  readonly outputsDir?: string;
  /** The runtime's environment: sentinel API keys and provider endpoints are read from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly sink: Pick<EventSink, "emit" | "emitAll">;
  /**
   * The run's `-m` override. One that resolves to the scripted model replaces every sentinel's model
   * too, so a dry run stays offline and free; any other override leaves sentinel models alone (a
   * sentinel's model is usually a small one, chosen on purpose).
   */
  readonly modelOverride?: string;
  /** The run's cancel: calls in flight are aborted and the sentinels unloaded (`shutdown`). */
  readonly signal?: AbortSignal;
}

/** The sentinel host of a run: the engine's `SentinelHost`, fed with every journaled event. */
export interface RunSentinels extends SentinelHost {
  /** Hands an event to the active codon's sentinels; sentinel events are never observed. */
  observe(event: JournaledEvent): void;
  /** Unloads whatever is still loaded (`shutdown`). */
  shutdown(): Promise<void>;
}

interface Active {
  readonly codonId: string;
  readonly sentinels: readonly RunningSentinel[];
}

/**
 * Runs the sentinels of one codon at a time, as the engine asks: `load` at the codon's start (problems
 * become `sentinel-load-failure` for a required sentinel, a warning for any other), `observe` for every
 * journaled event in between, `drain` and `unload` at its end. Codons without sentinels cost one check.
 */
export function createSentinelHost(options: SentinelHostOptions): RunSentinels {
  const outputsDir =
    options.outputsDir ?? join(options.agentRoot, "..", ".hankweave", "sentinels", "outputs");
  const loadAi = createPiAiLoader();
  const madeDirs = new Set<string>();
  let active: Active | undefined;

  const unload = async (codonId: string, reason: "codon-complete" | "shutdown"): Promise<void> => {
    const current = active;
    if (current === undefined || current.codonId !== codonId) return;
    if (reason === "codon-complete") await Promise.all(current.sentinels.map((s) => s.drain()));
    active = undefined;
    const unloaded = current.sentinels.flatMap((s) => s.stop(reason) ?? []);
    if (unloaded.length > 0) options.sink.emitAll(unloaded);
    await Promise.all(current.sentinels.map((s) => s.settled()));
  };
  const onAbort = (): void => {
    if (active !== undefined) void unload(active.codonId, "shutdown");
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });

  return {
    async load(context) {
      const codonId = context.entry.runtimeId;
      if (active?.codonId === codonId || (context.codon.sentinels?.length ?? 0) === 0) return LOADED;
      if (active !== undefined) await unload(active.codonId, "codon-complete");
      const loaded = loadCodonSentinels(
        context.codon,
        loadContext(options, { outputsDir, madeDirs }, context, loadAi),
      );
      const verdict = reportProblems(options.sink, codonId, loaded.problems);
      if (!verdict.ok) return verdict;
      const facts = {
        id: codonId,
        name: context.codon.name,
        ...(context.codon.description !== undefined && { description: context.codon.description }),
      };
      const sentinels = loaded.definitions.map(
        (definition) => new RunningSentinel(definition, facts, options.clock, options.sink),
      );
      const announced = loaded.definitions.flatMap((definition) =>
        definition.reporting.lifecycle ? [loadedEvent(definition, codonId)] : [],
      );
      if (announced.length > 0) options.sink.emitAll(announced);
      active = { codonId, sentinels };
      return LOADED;
    },
    observe(event) {
      if (active === undefined || category(event.type) === "sentinel") return;
      for (const sentinel of active.sentinels) sentinel.offer(event);
    },
    async drain(codonId) {
      if (active?.codonId !== codonId) return;
      await Promise.all(active.sentinels.map((s) => s.drain()));
    },
    unload,
    async shutdown() {
      options.signal?.removeEventListener("abort", onAbort);
      if (active !== undefined) await unload(active.codonId, "shutdown");
    },
  };
}

const LOADED: SentinelLoad = { ok: true };

function loadedEvent(definition: SentinelDefinition, codonId: string): EventDraftOf {
  const { config } = definition;
  const data: DataOf<"sentinel.loaded"> = {
    sentinelId: config.id,
    codonId,
    model: definition.model.id,
    triggerType: config.trigger.type,
    executionStrategy: config.execution.strategy,
    conversational: config.conversational !== undefined,
    source: definition.source,
    ...(definition.sourcePath !== undefined && { sourcePath: definition.sourcePath }),
  };
  return { type: "sentinel.loaded", data };
}

function loadContext(
  options: SentinelHostOptions,
  outputs: { readonly outputsDir: string; readonly madeDirs: Set<string> },
  context: CodonContext,
  loadAi: PiAiLoader,
): LoadContext {
  const iteration = context.entry.loop?.iteration;
  return {
    hankDir: options.hankDir,
    agentRoot: options.agentRoot,
    ...outputs,
    codonId: context.entry.runtimeId,
    now: options.clock.now(),
    modelFor: (config) => modelFor(config, options, loadAi, iteration),
  };
}

/** The model a sentinel calls: the scripted one for a scripted id or a dry run, else pi-ai's client. */
function modelFor(
  config: SentinelConfig,
  options: SentinelHostOptions,
  loadAi: PiAiLoader,
  iteration: number | undefined,
): { readonly ok: true; readonly model: SentinelModel } | { readonly ok: false; readonly message: string } {
  const override = options.modelOverride === undefined ? undefined : resolveModel(options.modelOverride);
  const dryRun = override?.ok === true && override.model.harness === "scripted" ? override.model : undefined;
  const resolved = dryRun === undefined ? resolveModel(config.model) : { ok: true as const, model: dryRun };
  if (!resolved.ok) return { ok: false, message: `model '${config.model}': ${resolved.message}` };
  const { model } = resolved;
  switch (model.harness) {
    case "scripted":
      return { ok: true, model: createScriptedSentinelModel(model.requested, options.clock, iteration) };
    case "command":
      return {
        ok: false,
        message: `model '${model.requested}' is a command agent; a sentinel needs a model it can call`,
      };
    default:
      return createPiSentinelModel(model, options.env, loadAi, () => options.clock.now());
  }
}

/**
 * Journals a warning for each sentinel the codon runs without, and fails the load when one it cannot
 * run without (`failCodonIfNotLoaded`) did not load.
 */
function reportProblems(
  sink: Pick<EventSink, "emit" | "emitAll">,
  codonId: string,
  problems: readonly LoadProblem[],
): SentinelLoad {
  const required = problems.filter((problem) => problem.required);
  for (const problem of problems) {
    if (problem.required) continue;
    sink.emit("error", {
      message: `Sentinel ${problem.ref} of codon ${codonId} was not loaded: ${problem.message}`,
      codon: codonId,
      fatal: false,
      severity: "warning",
      context: "sentinel",
    });
  }
  if (required.length === 0) return LOADED;
  const details = required.map((problem) => `${problem.ref}: ${problem.message}`).join("; ");
  return {
    ok: false,
    reason: {
      type: "sentinel-load-failure",
      retriable: false,
      message: `Codon ${codonId} cannot run without its sentinel${required.length === 1 ? "" : "s"} (failCodonIfNotLoaded): ${details}`,
      sentinelRefs: required.map((problem) => problem.ref),
    },
  };
}
