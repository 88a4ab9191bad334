import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createEventSink } from "../../src/engine/index.ts";
import type { JournaledEvent } from "../../src/events/index.ts";
import { type CodonInput, HankFile } from "../../src/hank/schema/index.ts";
import { MemoryEventStore } from "../../src/journal/index.ts";
import { buildPlan } from "../../src/plan/index.ts";
import { createSentinelHost } from "../../src/sentinels/index.ts";
import { createFakeClock, hankOf, runHankForTest, scriptedCodon } from "../../src/testing/index.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "sentinels";

type SentinelEntryInput = NonNullable<CodonInput["sentinels"]>[number];

/**
 * Sentinels: (1) the cost of handing one journaled event to the active codon's sentinels, with 10
 * loaded (event triggers with conditions, sequences and wildcards, batching strategies, so no model
 * call runs while it is measured); (2) a run's wall time per no-op codon without sentinels, with one
 * observer per codon (a scripted call per agent message), and with 10 per codon. Runs in the bench
 * process: the dispatch loop is pure CPU, the runs use the test kit (fake clock, file journal, no git).
 */
export const sentinelsSuite: Suite = {
  name: BENCH,
  title: "Sentinel dispatch and per-codon overhead",
  async run(context) {
    return [await dispatchFigure(context), ...(await overheadFigures(context))];
  },
};

/** Ten sentinels of every kind a hank uses, none of which calls its model before the codon ends. */
function tenSentinels(): SentinelEntryInput[] {
  const base = { model: "scripted", userPromptText: "@say <%= it.events.length %>" };
  const bash = { path: "toolName", operator: "equals", value: "Bash" };
  const failed = { path: "isError", operator: "equals", value: true };
  const configs = [
    {
      trigger: { type: "event", on: ["tool.result"], conditions: [bash, failed] },
      execution: { strategy: "debounce", milliseconds: 60_000 },
    },
    {
      trigger: {
        type: "event",
        on: ["file.updated"],
        conditions: [{ path: "path", operator: "matches", value: "\\.ts$" }],
      },
      execution: { strategy: "count", threshold: 1000 },
    },
    {
      trigger: {
        type: "event",
        on: ["assistant.action"],
        conditions: [{ path: "action", operator: "in", value: ["message", "thinking"] }],
      },
      execution: { strategy: "timeWindow", milliseconds: 60_000 },
    },
    {
      trigger: {
        type: "event",
        on: ["token.usage"],
        conditions: [{ path: "totalCost", operator: "greaterThan", value: 5 }],
      },
      execution: { strategy: "count", threshold: 1000 },
    },
    { trigger: { type: "event", on: ["*"] }, execution: { strategy: "count", threshold: 1000 } },
    { trigger: { type: "event", on: ["*"] }, execution: { strategy: "debounce", milliseconds: 60_000 } },
    {
      trigger: { type: "event", on: ["tool.result", "file.updated"] },
      execution: { strategy: "timeWindow", milliseconds: 60_000 },
    },
    {
      trigger: {
        type: "sequence",
        interestFilter: { on: ["tool.result"] },
        pattern: [
          { type: "tool.result", conditions: [failed] },
          { type: "tool.result", conditions: [failed] },
        ],
      },
      execution: { strategy: "count", threshold: 1000 },
    },
    {
      trigger: {
        type: "sequence",
        interestFilter: { on: ["assistant.action", "file.updated"] },
        pattern: [{ type: "assistant.action" }, { type: "file.updated" }],
        options: { consecutive: false },
      },
      execution: { strategy: "count", threshold: 1000 },
    },
    {
      trigger: {
        type: "sequence",
        interestFilter: { on: ["*"] },
        pattern: [{ type: "tool.result" }, { type: "file.updated" }],
      },
      execution: { strategy: "count", threshold: 1000 },
    },
  ];
  // Plain hank JSON: the hank schema checks it when the bench hank is parsed.
  return configs.map(
    (config, i) =>
      ({ sentinelConfig: { ...base, ...config, id: `s${i}`, name: `Sentinel ${i}` } }) as SentinelEntryInput,
  );
}

/** A realistic mix of the events a codon journals. */
function eventMix(): JournaledEvent[] {
  const data: [string, Record<string, unknown>][] = [
    ["assistant.action", { codonId: "build", action: "message", content: "Looking at the tests." }],
    [
      "assistant.action",
      {
        codonId: "build",
        action: "tool_use",
        content: "Bash",
        toolName: "Bash",
        toolUseId: "t1",
        toolInput: { command: "npm test" },
      },
    ],
    [
      "tool.result",
      {
        codonId: "build",
        toolUseId: "t1",
        toolName: "Bash",
        result: "1 failing",
        truncated: false,
        originalLength: 9,
        executionTimeMs: 900,
        isError: true,
      },
    ],
    [
      "file.updated",
      {
        path: "src/a.ts",
        filename: "a.ts",
        action: "modified",
        source: { kind: "tool_use", toolUseId: "t2" },
      },
    ],
    [
      "token.usage",
      {
        codonId: "build",
        inputTokens: 1200,
        outputTokens: 80,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        totalCost: 0.02,
      },
    ],
  ];
  return data.map(
    ([type, payload], i) =>
      ({
        v: 1,
        id: `e${i}`,
        seq: i + 1,
        timestamp: "2025-01-01T00:00:00.000Z",
        type,
        data: payload,
      }) as unknown as JournaledEvent,
  );
}

async function dispatchFigure(context: SuiteContext): Promise<FigureLine> {
  const hank = HankFile.parse(hankOf([scriptedCodon("build", "@say ok", { sentinels: tenSentinels() })]));
  const [entry] = buildPlan(hank).entries;
  const codon = hank.hank[0];
  if (entry === undefined || codon === undefined || codon.type === "loop")
    throw new Error("bench hank has no codon");
  const dir = mkdtempSync(join(tmpdir(), "hw-bench-sentinels-"));
  try {
    const host = createSentinelHost({
      hankDir: dir,
      agentRoot: join(dir, "agentRoot"),
      env: {},
      clock: createFakeClock(),
      sink: createEventSink({ store: new MemoryEventStore() }),
    });
    const loaded = await host.load({ entry, codon, runId: "bench", attempt: 1 });
    if (!loaded.ok) throw new Error(loaded.reason.message);
    const events = eventMix();
    const perSample = context.quick ? 20_000 : 100_000;
    const samples: number[] = [];
    for (let sample = 0; sample < (context.quick ? 3 : 7); sample++) {
      const started = performance.now();
      for (let i = 0; i < perSample; i++) host.observe(events[i % events.length] as JournaledEvent);
      samples.push(((performance.now() - started) * 1000) / perSample);
    }
    context.log(`  dispatch: ${perSample} events x ${samples.length} samples, 10 sentinels`);
    return figure(
      {
        bench: BENCH,
        figure: "dispatch/10-sentinels",
        unit: "µs/event",
        target: atMost(20),
        note: "observe(): type filter, conditions, sequences, batching (no model call)",
      },
      samples,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Shape = "none" | "observer" | "ten";

/** A hank of no-op codons (one message each), with no sentinels, one observer, or ten per codon. */
function overheadHank(codons: number, shape: Shape) {
  const observer: SentinelEntryInput = {
    sentinelConfig: {
      id: "observer",
      name: "Observer",
      model: "scripted",
      trigger: { type: "event", on: ["assistant.action"] },
      execution: { strategy: "immediate" },
      userPromptText: "@say <%= it.events[0].data.content %>",
    },
  };
  const sentinels = shape === "none" ? undefined : shape === "observer" ? [observer] : tenSentinels();
  return hankOf(
    Array.from({ length: codons }, (_, i) =>
      scriptedCodon(`c${i}`, "Nothing to do.", sentinels === undefined ? {} : { sentinels }),
    ),
  );
}

async function overheadFigures(context: SuiteContext): Promise<FigureLine[]> {
  const codons = context.quick ? 20 : 100;
  const runs = context.quick ? 2 : 3;
  const perShape = new Map<Shape, number[]>();
  for (const shape of ["none", "observer", "ten"] as const) {
    context.log(`  per-codon: ${codons} codons, sentinels: ${shape}`);
    await runOnce(overheadHank(5, shape)); // warm-up
    const samples: number[] = [];
    for (let run = 0; run < runs; run++) samples.push((await runOnce(overheadHank(codons, shape))) / codons);
    perShape.set(shape, samples);
  }
  const spec = (name: string, note: string) => ({
    bench: BENCH,
    figure: `per-codon/${name}`,
    unit: "ms/codon",
    note,
  });
  const none = perShape.get("none") ?? [];
  const extra = (shape: Shape) => (perShape.get(shape) ?? []).map((ms, i) => ms - (none[i] ?? 0));
  return [
    figure(spec("without", "test kit run: engine, file journal, no git"), none),
    figure(
      spec("one-observer", "one immediate observer per codon: one scripted call and output"),
      perShape.get("observer") ?? [],
    ),
    figure(
      spec("ten-sentinels", "the ten dispatch sentinels per codon, drained at each codon end"),
      perShape.get("ten") ?? [],
    ),
    figure(spec("one-observer-extra", "one-observer minus without, run by run"), extra("observer")),
    figure(spec("ten-sentinels-extra", "ten-sentinels minus without, run by run"), extra("ten")),
  ];
}

/** Wall time of one test-kit run of the hank, in ms. */
async function runOnce(hank: ReturnType<typeof hankOf>): Promise<number> {
  const started = performance.now();
  const run = await runHankForTest({ hank });
  const took = performance.now() - started;
  if (run.result.status !== "completed")
    throw new Error(`bench run ended ${run.result.status}: ${run.result.message}`);
  run.remove();
  return took;
}
