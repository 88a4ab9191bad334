import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventDraftOf } from "../../src/engine/index.ts";
import { createEventSink, runHank, systemClock } from "../../src/engine/index.ts";
import { createHarnessRegistry } from "../../src/harness/registry.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import { writeHank } from "./hank-fixture.ts";
import { loadFixture } from "./load-fixture.ts";
import { createMemoryStore } from "./memory-store.ts";

/**
 * A busy codon: 24 turns of text, thinking, a file edit and token usage, like an agent at work. The
 * synthetic journal repeats the events one iteration of it produces.
 */
export const BUSY_PROMPT = Array.from(
  { length: 24 },
  (_, i) =>
    `@think Considering step ${i} of the task before acting on it.\n` +
    `@say Step ${i}: updating the notes with what was found so far.\n` +
    `@append notes/log-${i % 4}.md finding ${i}: the benchmark codon is busy\n` +
    `@usage input=${1200 + i} output=${180 + i} cacheRead=900`,
).join("\n");

export interface JournalTemplate {
  /** The run's opening events (run started), before the first codon. */
  readonly head: EventDraftOf[];
  /** The events of one loop iteration, codon id `step#1`, iteration 1. */
  readonly iteration: EventDraftOf[];
  /** The run's closing events (budget summary, idle, run completed) are left out: a long run is still going. */
}

/** Runs a 3-iteration loop of the busy codon in memory and cuts out the events of iteration 1. */
export async function recordTemplate(): Promise<JournalTemplate> {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-template-"));
  try {
    const hankDir = writeHank(join(root, "hank"), {
      shape: { kind: "loop", iterations: 3 },
      prompt: BUSY_PROMPT,
    });
    const { hank, models } = loadFixture(hankDir);
    const agentRoot = join(root, "agentRoot");
    mkdirSync(agentRoot);
    const store = createMemoryStore(true);
    const clock = systemClock();
    await runHank(
      { hank, hankDir, models, agentRoot, processEnv: process.env, options: { headless: true } },
      {
        clock,
        newId: randomUUID,
        sink: createEventSink({ store }),
        harnesses: createHarnessRegistry({
          scripted: () => createScriptedHarness({ clock, newId: randomUUID }),
        }),
        signal: new AbortController().signal,
      },
    );
    return cut(store.drafts ?? []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Iteration 1 runs from just after iteration 0's loop report to its own loop report, inclusive. */
function cut(drafts: EventDraftOf[]): JournalTemplate {
  const reports = drafts
    .map((draft, index) => (draft.type === "loop.iteration.completed" ? index : -1))
    .filter((index) => index >= 0);
  const [first, second] = reports;
  if (first === undefined || second === undefined) throw new Error("template run has no two iterations");
  const firstCodon = drafts.findIndex((draft) => JSON.stringify(draft).includes('"step#0"'));
  return { head: drafts.slice(0, firstCodon), iteration: drafts.slice(first + 1, second + 1) };
}

/**
 * The template's iteration as iteration `n`: runtime ids and session ids renamed, the loop report
 * renumbered. Returns fresh objects (the journal writer keeps nothing).
 */
export function instantiate(iterationJson: string, n: number): EventDraftOf[] {
  const drafts = JSON.parse(iterationJson.replaceAll('"step#1"', `"step#${n}"`)) as EventDraftOf[];
  for (const draft of drafts) {
    if (draft.type === "loop.iteration.completed") {
      (draft.data as { iteration: number }).iteration = n;
    }
  }
  return drafts;
}
