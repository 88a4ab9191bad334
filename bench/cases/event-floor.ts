import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type EventDraftOf, systemClock } from "../../src/engine/index.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import { createRunChannels, openRunSink } from "../../src/runner/index.ts";
import { createSentinelHost } from "../../src/sentinels/index.ts";
import { runNoopSession } from "./agent-floor.ts";
import { writeHank } from "./hank-fixture.ts";
import { createMemoryStore } from "./memory-store.ts";

export interface EventFloorArgs {
  readonly codons: number;
}

export interface EventFloorResult {
  readonly codons: number;
  readonly eventsPerCodon: number;
  readonly totalMs: number;
}

/**
 * The floor under `engine-only`: for each codon, the scripted agent's session drained (as
 * `agent-floor`) and the events a no-op loop codon journals (taken from a real run of the bench hank)
 * sent through the run's own sink as the engine sends them: enveloped, reduced into the run state,
 * delivered to the listeners and the bus, observed by the sentinel host. No plan, attempt, budget,
 * timer or decision. What `engine-only` costs above this is the engine's own work.
 */
export async function eventFloor(args: EventFloorArgs): Promise<EventFloorResult> {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-event-floor-"));
  try {
    recorded ??= codonEvents(root);
    const perCodon = recorded;
    const drafts = Array.from({ length: args.codons }, (_, i) => renamed(perCodon, i));
    const clock = systemClock();
    const harness = createScriptedHarness({ clock, newId: randomUUID });
    const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
    const cancel = new AbortController();
    const channels = createRunChannels(randomUUID, () => undefined);
    const sink = openRunSink({ store: createMemoryStore(), listeners: [() => undefined], channels });
    const sentinels = createSentinelHost({
      hankDir: root,
      agentRoot: root,
      env,
      clock,
      sink,
      signal: cancel.signal,
    });
    const observing = channels.events.subscribe((event) => sentinels.observe(event), { name: "sentinels" });
    const start = performance.now();
    for (let i = 0; i < args.codons; i++) {
      await runNoopSession(harness, i, { cwd: root, env, signal: cancel.signal });
      for (const draft of drafts[i] ?? []) sink.emitAll([draft]);
    }
    const totalMs = performance.now() - start;
    observing.unsubscribe();
    await sentinels.shutdown();
    return { codons: args.codons, eventsPerCodon: perCodon.length, totalMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Recorded once per process: the repeats of a case time the same events. */
let recorded: EventDraftOf[] | undefined;

/** The events of `step#1` (a middle iteration, its loop report included) in a real 3-iteration run. */
function codonEvents(root: string): EventDraftOf[] {
  const hankDir = writeHank(join(root, "hank"), { shape: { kind: "loop", iterations: 3 } });
  const exec = join(root, "exec");
  // The bench runs from the repository root (as `traced-run` finds its receiver child).
  const cli = join(process.cwd(), "src", "cli", "main.ts");
  execFileSync(process.execPath, ["--import", "tsx", cli, hankDir, "-e", exec, "--headless"], {
    stdio: "ignore",
  });
  const lines = readFileSync(join(exec, ".hankweave", "events", "events.jsonl"), "utf8")
    .trim()
    .split("\n");
  const events = lines.map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
  const first = events.findIndex((e) => e.data.codonId === "step#1");
  const last = events.findIndex((e) => e.type === "loop.iteration.completed" && e.data.iteration === 1);
  return events.slice(first, last + 1).map((e) => ({ type: e.type, data: e.data }) as EventDraftOf);
}

/** The codon's events with its runtime id `step#1` made `step#<i>`, as the i-th iteration would journal them. */
function renamed(events: readonly EventDraftOf[], i: number): EventDraftOf[] {
  return JSON.parse(
    JSON.stringify(events)
      .replaceAll('"step#1"', `"step#${i}"`)
      .replaceAll('"iteration":1', `"iteration":${i}`),
  ) as EventDraftOf[];
}
