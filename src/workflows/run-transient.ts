import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataOf } from "../events/index.ts";
import type { CommandConfig } from "../harness/command/index.ts";
import { createHarnessRegistry, type HarnessRegistry, harnessFactories } from "../harness/index.ts";
import { createUnkeptEventStore } from "../journal/index.ts";
import { startRunTracing } from "../observability/index.ts";
import type { EventListener } from "../runner/index.ts";
import { createRunChannels, openRunSink, runWorkspace } from "../runner/index.ts";
import { loadCommands } from "../runner/load-commands.ts";
import { selfTestModels } from "../runner/self-test.ts";
import { type Clock, systemClock } from "../util/clock.ts";
import { type LoopHank, sessionGroups } from "./loop-hank.ts";
import type { CheckedLoopOptions } from "./loop-options.ts";
import type { LoopRunEnding } from "./loop-outcome.ts";
import type { LoopTrace } from "./loop-trace.ts";
import { type PreparedLoop, prepareLoop } from "./prepare-loop.ts";
import { relayFor, type StepRelay } from "./step-relay.ts";

/** A loop's run and what its result needs to know about it. */
export interface LoopRun {
  readonly ending: LoopRunEnding;
  readonly relay: StepRelay;
  readonly loop: LoopHank;
  readonly workspace: string;
  readonly journal?: string;
}

/**
 * A loop that keeps nothing after its process: the engine over a journal that keeps nothing (events
 * are enveloped and numbered, and read live), the agents working in `cwd`, no checkpoints. The step
 * inputs are held in memory; the generated hank, the inputs' placeholder files and the harnesses'
 * state live in a temp directory removed at the end. Throws only `WorkflowArgumentError` (before
 * anything runs).
 */
export async function runTransient(
  options: CheckedLoopOptions,
  where: string,
  trace: LoopTrace | undefined,
): Promise<LoopRun> {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-loop-"));
  try {
    const prepared = prepareLoop(options, join(dir, "hank"), false, where);
    const relay = relayFor(options, prepared);
    const workspace = options.cwd ?? process.cwd();
    const base = { relay, loop: prepared.loop, workspace };
    const commands = loadCommands(prepared.files.hankDir, workspace);
    if (!commands.ok) return { ...base, ending: { kind: "refused", message: commands.message } };
    const selfTest = selfTestModels(prepared.report.models.values(), options.env, commands.config);
    if (selfTest.length > 0) {
      return { ...base, ending: { kind: "refused", message: `Self-test failed:\n${selfTest.join("\n")}` } };
    }
    const stateDir = join(dir, "state");
    const ending = await runInMemory({
      options,
      prepared,
      relay,
      workspace,
      stateDir,
      commands: commands.config,
      trace,
    });
    return { ...base, ending };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface InMemoryRun {
  readonly options: CheckedLoopOptions;
  readonly prepared: PreparedLoop;
  readonly relay: StepRelay;
  readonly workspace: string;
  /** Where the harnesses keep their sessions (the scripted agent's, Claude's config, pi's files). */
  readonly stateDir: string;
  readonly commands: CommandConfig | undefined;
  readonly trace: LoopTrace | undefined;
}

/** The runner's composition (sink, bus, inbox, engine) over a journal that keeps nothing. */
async function runInMemory(run: InMemoryRun): Promise<LoopRunEnding> {
  const { options, prepared, relay } = run;
  const clock = options.clock ?? systemClock();
  const channels = createRunChannels(randomUUID, () => undefined);
  let finalReport: DataOf<"loop.iteration.completed"> | undefined;
  const reports: EventListener = (event) => {
    if (event.type === "loop.iteration.completed" && event.data.isFinal) finalReport = event.data;
  };
  const tracing = await transientTracing(run.trace, options.env);
  // Nothing reads the events back: the run state, the relay and a synchronous `onEvent` take them live.
  const sink = openRunSink({
    store: createUnkeptEventStore(),
    listeners: [relay.listener, reports, ...tracing.listeners],
    channels,
  });
  if (options.onEvent !== undefined) channels.events.subscribe(options.onEvent, { name: "onEvent" });
  const result = await runWorkspace({
    hank: prepared.report.hank,
    hankDir: prepared.files.hankDir,
    models: prepared.report.models,
    agentRoot: run.workspace,
    env: options.env,
    options: { headless: true },
    stopRules: [relay.rule],
    ...(options.lifetime === "workflow" && {
      continueOwnSession: sessionGroups(prepared.loop.steps),
    }),
    ...(prepared.loop.codonTools !== undefined && { codonTools: prepared.loop.codonTools }),
    heldPrompts: prepared.files.held,
    clock,
    newId: randomUUID,
    sink,
    harnesses: transientHarnesses(run, clock),
    channels,
    signal: options.signal ?? new AbortController().signal,
  }).finally(() => tracing.close(new Date(clock.now())));
  await channels.events.close();
  return {
    kind: "ran",
    outcome: result.status,
    message: result.message,
    state: sink.state(),
    ...(finalReport !== undefined && { finalReport }),
  };
}

function transientHarnesses(run: InMemoryRun, clock: Clock): HarnessRegistry {
  return createHarnessRegistry(
    harnessFactories({
      clock,
      stateDir: run.stateDir,
      ephemeral: true,
      tempDir: tmpdir(),
      newId: randomUUID,
      ...(run.commands !== undefined && { commands: run.commands }),
    }),
  );
}

/** A transient run is traced only under its loop's span: it has no execution, so no trace of its own. */
async function transientTracing(
  trace: LoopTrace | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ readonly listeners: EventListener[]; close(at: Date): Promise<void> }> {
  const tracing =
    trace === undefined
      ? undefined
      : await startRunTracing({ env, options: trace.tracing, version: "library" });
  if (trace === undefined || tracing === undefined) return { listeners: [], close: async () => undefined };
  return { listeners: [trace.listener, tracing.onEvent], close: (at) => tracing.close(at) };
}
