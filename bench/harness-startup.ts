/**
 * `node --import tsx bench/harness-startup.ts [--sessions 5] [--runs 3] [--only scripted,pi,claude,command]`:
 * for each harness, a hank of fresh codons (each session writes a file, then answers) runs through
 * the engine against the fake providers, as in the conformance suite. Per harness it prints, as JSON
 * lines on stdout (then a table on stderr):
 * - `<harness>/fixture-start`: starting the fake server (and importing pi's SDK, about 1.7 s, for pi);
 * - `<harness>/first-session-startup`: the first session of the process (cold; Claude's SDK import);
 * - `<harness>/session-startup`: `start()` until the session reported its id (`session.started`);
 * - `<harness>/session`: `start()` until the session's outcome settled (the harness's whole time);
 * - `<harness>/overhead-per-session`: `runHank` wall time minus the sessions' time, per session: what
 *   the engine adds around a session (prompts, events into the validated journal, codon boundaries).
 *   No workspace hooks run (no git checkpoints); `codon-overhead` in `npm run bench` measures those.
 */
import { parseArgs } from "node:util";
import { hankOf, scriptedCodon } from "../src/testing/hank-builders.ts";
import type {
  ConformanceSetup,
  ConformanceTarget,
} from "../src/testing/harness-conformance/conformance-types.ts";
import { runConformanceHank } from "../src/testing/harness-conformance/run-conformance-hank.ts";
import {
  createSessionDirector,
  type SessionDirector,
} from "../src/testing/harness-conformance/session-director.ts";
import type { SessionPlan } from "../src/testing/harness-conformance/session-plan.ts";
import { claudeConformanceSetup } from "../src/testing/harness-conformance/targets/claude-target.ts";
import {
  commandConformanceSetup,
  findPiCli,
} from "../src/testing/harness-conformance/targets/command-target.ts";
import { piConformanceSetup } from "../src/testing/harness-conformance/targets/pi-target.ts";
import { scriptedConformanceSetup } from "../src/testing/harness-conformance/targets/scripted-target.ts";
import { type FigureLine, figure } from "./lib/figure.ts";
import { markdownTable } from "./lib/table.ts";

const BENCH = "harness-startup";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "5" },
    runs: { type: "string", default: "3" },
    only: { type: "string" },
  },
});
const sessions = Math.max(1, Number.parseInt(values.sessions ?? "5", 10));
const runs = Math.max(1, Number.parseInt(values.runs ?? "3", 10));

function setups(): Array<[string, ConformanceSetup]> {
  const piCli = findPiCli();
  const all: Array<[string, ConformanceSetup | undefined]> = [
    ["scripted", scriptedConformanceSetup()],
    ["pi", piConformanceSetup()],
    ["claude", claudeConformanceSetup()],
    ["command-pi-cli", piCli === undefined ? undefined : commandConformanceSetup(piCli)],
  ];
  const only = values.only?.split(",").map((name) => name.trim());
  return all.flatMap(([name, setup]) =>
    setup !== undefined && (only === undefined || only.some((o) => name.startsWith(o)))
      ? [[name, setup]]
      : [],
  );
}

/** What one run of `count` fresh codons measured: per-session times and the engine's share. */
interface RunSample {
  readonly startup: number[];
  readonly whole: number[];
  readonly overheadPerSession: number;
}

/** A harness's started fixtures and the director its fake model follows. */
interface Fixture {
  readonly name: string;
  readonly setup: ConformanceSetup;
  readonly target: ConformanceTarget;
  readonly director: SessionDirector;
}

/** One run of `count` fresh codons, each one session that writes a file and answers. */
async function runOnce(fixture: Fixture, count: number): Promise<RunSample> {
  const { name, setup, target, director } = fixture;
  const codons = Array.from({ length: count }, (_, i) => scriptedCodon(`c${i}`, `Write file ${i}.`));
  const plans: SessionPlan[] = codons.map((_, i) => ({
    kind: "work",
    steps: [{ kind: "write", path: `out-${i}.txt`, content: `${i}\n` }],
    text: "Done.",
  }));
  const run = await runConformanceHank({ hank: hankOf(codons), model: setup.model, plans, target, director });
  try {
    if (run.result.status !== "completed") throw new Error(`${name}: ${run.result.message}`);
    const startup = run.sessions.map((s) => (s.sessionStartedMs ?? Number.NaN) - s.startMs);
    const whole = run.sessions.map((s) => (s.endMs ?? Number.NaN) - s.startMs);
    const harnessMs = whole.reduce((sum, ms) => sum + ms, 0);
    return { startup, whole, overheadPerSession: (run.engineMs - harnessMs) / count };
  } finally {
    run.remove();
  }
}

async function measure(name: string, setup: ConformanceSetup): Promise<FigureLine[]> {
  const director = createSessionDirector();
  const startedAt = performance.now();
  const target = await setup.start(director);
  const fixtureMs = performance.now() - startedAt;
  try {
    const samples: RunSample[] = [];
    for (let i = 0; i < runs; i += 1)
      samples.push(await runOnce({ name, setup, target, director }, sessions));
    const [cold, ...warm] = samples.flatMap((s) => s.startup);
    const whole = samples.flatMap((s) => s.whole).slice(1);
    const note = `${runs} runs of ${sessions} sessions; the first session of the first run is left out`;
    const line = (figureName: string, values: readonly number[], text: string): FigureLine =>
      figure({ bench: BENCH, figure: `${name}/${figureName}`, unit: "ms", note: text }, values);
    return [
      line("fixture-start", [fixtureMs], "fake server (and, for pi, the SDK import of about 1.7 s)"),
      line("first-session-startup", [cold ?? Number.NaN], "cold: the first session of the process"),
      line(
        "session-startup",
        warm.length > 0 ? warm : [cold ?? Number.NaN],
        `start() to session.started; ${note}`,
      ),
      line(
        "session",
        whole.length > 0 ? whole : samples.flatMap((s) => s.whole),
        `start() to outcome; ${note}`,
      ),
      line(
        "overhead-per-session",
        samples.map((s) => s.overheadPerSession),
        "runHank wall time minus the sessions' time, per session (no workspace hooks)",
      ),
    ];
  } finally {
    await target.close();
  }
}

/** Runs the engine once on the scripted agent first, so its JIT warm-up counts against no harness. */
async function warmUp(): Promise<void> {
  const setup = scriptedConformanceSetup();
  const director = createSessionDirector();
  const target = await setup.start(director);
  await runOnce({ name: "warm-up", setup, target, director }, 3);
  await target.close();
}

await warmUp();
const lines: FigureLine[] = [];
for (const [name, setup] of setups()) {
  process.stderr.write(`${name}: ${runs} runs of ${sessions} sessions...\n`);
  for (const line of await measure(name, setup)) {
    lines.push(line);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
process.stderr.write(`${markdownTable(lines)}\n`);
