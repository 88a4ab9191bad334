import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { EngineOptions, RunResult } from "../../engine/index.ts";
import { systemClock } from "../../engine/index.ts";
import type { DataOf, JournaledEvent, JournaledType } from "../../journal/index.ts";
import { JournalWriter } from "../../journal/index.ts";
import { createRunChannels, openRunSink, runWorkspace } from "../../runner/index.ts";
import { countingIds } from "../counting-ids.ts";
import { prepareTestHank } from "../prepare-test-hank.ts";
import type { ConformanceTarget } from "./conformance-types.ts";
import { probeHarness, type SessionTiming } from "./probe-harness.ts";
import type { SessionDirector } from "./session-director.ts";
import type { SessionPlan } from "./session-plan.ts";

export interface ConformanceHankInput {
  /** The hank object (what hank.json holds); every codon's model is replaced by `model`. */
  readonly hank: unknown;
  readonly model: string;
  /** What the model does in each session, in the order the engine starts them. */
  readonly plans: readonly SessionPlan[];
  readonly target: ConformanceTarget;
  readonly director: SessionDirector;
  readonly options?: Partial<EngineOptions>;
}

/** A finished run: the engine's result, the journal, the workspace and the time split. */
export interface ConformanceRun {
  readonly result: RunResult;
  readonly events: readonly JournaledEvent[];
  /** The agent's working directory, still on disk until `remove()`. */
  readonly agentRoot: string;
  /** Each session the harness ran, in start order. */
  readonly sessions: readonly SessionTiming[];
  /** Wall time of the run, in milliseconds. */
  readonly engineMs: number;
  data<T extends JournaledType>(type: T): DataOf<T>[];
  remove(): void;
}

/**
 * Runs a hank through the runner's composition of a run (`runWorkspace`) with the harness under test as
 * the only harness: validated like any run, a real clock (the harness's sessions are real), a validated
 * journal, no workspace hooks. The harness is wrapped in a probe that steps the director and times each
 * session.
 */
export async function runConformanceHank(input: ConformanceHankInput): Promise<ConformanceRun> {
  const prepared = prepareTestHank({ hank: input.hank, model: input.model, env: input.target.env });
  const remove = (): void => rmSync(prepared.dir, { recursive: true, force: true });
  const stateDir = join(prepared.dir, "state");
  mkdirSync(stateDir);
  const clock = systemClock();
  const probe = probeHarness(input.target.createHarness(stateDir), input.director, () => performance.now());
  const writer = JournalWriter.open(prepared.journalPath, { validate: true });
  const events: JournaledEvent[] = [];
  const channels = createRunChannels(countingIds("event"), () => prepared.journalPath);
  const sink = openRunSink({ store: writer, listeners: [(event) => events.push(event)], channels });
  input.director.plan(input.plans);
  try {
    const startedAt = performance.now();
    const result = await runWorkspace({
      hank: prepared.hank,
      hankDir: prepared.hankDir,
      models: prepared.models,
      agentRoot: prepared.agentRoot,
      env: input.target.env,
      options: { headless: true, ...input.options },
      clock,
      newId: countingIds("run"),
      sink,
      harnesses: { forModel: () => probe.harness },
      channels,
      signal: new AbortController().signal,
    });
    const engineMs = performance.now() - startedAt;
    return {
      result,
      events,
      agentRoot: prepared.agentRoot,
      sessions: probe.timings,
      engineMs,
      data: <T extends JournaledType>(type: T): DataOf<T>[] =>
        events.filter((event) => event.type === type).map((event) => event.data as DataOf<T>),
      remove,
    };
  } catch (caught) {
    remove();
    throw caught;
  } finally {
    await channels.events.close();
    writer.close();
  }
}
