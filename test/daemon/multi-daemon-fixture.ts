import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { admitRun } from "../../src/loops/coordinator/admit-run.ts";
import { executionDirOf } from "../../src/loops/coordinator/run-body.ts";
import { loadDefinition } from "../../src/loops/definition/load-definition.ts";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import { systemClock } from "../../src/util/clock.ts";
import { type BundledEntry, bundleEntry } from "../fixtures/bundle-entry.ts";
import { countGate, INCREMENT, type LoopSpec } from "../loops/loop-fixture.ts";

/**
 * What the multi-daemon test and the `loops-distributed` bench share: a Loop of one scripted codon
 * and a command gate that passes once the body ran (one generation each), N copies of it admitted
 * into one store, and daemon processes bundled once (a tsx start per restart costs seconds).
 */
export const ONE_GENERATION: LoopSpec = {
  body: [INCREMENT],
  toml: `[contract]\ngoal = "count to 1"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`,
  scripts: { "check.sh": countGate(1) },
};

/** The daemon child (multi-daemon-child.ts), bundled into a git-ignored directory of the repository. */
export function bundleDaemon(): Promise<BundledEntry> {
  return bundleEntry(join(import.meta.dirname, "multi-daemon-child.ts"), "daemon");
}

export interface DaemonProcess {
  readonly child: ChildProcess;
  /** Resolves when the daemon has opened the store and made its first pass. */
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;
}

export interface DaemonTarget {
  readonly bundle: string;
  /** A PostgreSQL URL, or a SQLite file. */
  readonly url: string;
  readonly schema: string;
  readonly home: string;
  readonly workers: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The daemon's tick (default 100 ms; a real daemon ticks every second). */
  readonly tickMs?: number;
}

export function spawnDaemon(target: DaemonTarget): DaemonProcess {
  const child = spawn(
    process.execPath,
    [
      target.bundle,
      target.url,
      target.schema,
      target.home,
      String(target.workers),
      String(target.tickMs ?? 100),
    ],
    {
      // The daemon makes no TLS connection: without the machine's extra CA file it starts faster.
      env: { ...target.env, NODE_EXTRA_CA_CERTS: "" },
      stdio: ["ignore", "pipe", process.env.MULTI_DAEMON_DEBUG === undefined ? "ignore" : "inherit"],
    },
  );
  const ready = new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, ready, exited };
}

/** `count` copies of the fixture's `demo` Loop (ids `<prefix>-00`...), one run of each admitted. */
export async function admitCopies(
  dir: string,
  store: LoopStore,
  home: string,
  count: number,
  prefix = "loop",
) {
  const text = readFileSync(join(dir, "demo.loop.toml"), "utf8");
  const runs: { readonly id: string; readonly dir: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}-${String(i).padStart(2, "0")}`;
    const file = join(dir, `${id}.loop.toml`);
    writeFileSync(file, text.replace('id = "demo"', `id = "${id}"`));
    const loaded = loadDefinition(file);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const admitted = await admitRun({
      store,
      definition: loaded.definition,
      home,
      clock: systemClock(),
      newId: () => `${id}-run`,
    });
    if (admitted.kind !== "admitted") throw new Error(`${id}: ${admitted.kind}`);
    runs.push({ id: admitted.run.id, dir: admitted.run.dir });
  }
  return runs;
}

export interface RunEnd {
  readonly outcome: string;
  readonly verdicts: string;
  readonly generations: number;
  /** How many times each body codon completed successfully, by codon id (from the body's journal). */
  readonly completions: ReadonlyMap<string, number>;
}

export async function runEnd(store: LoopStore, runId: string, runDir: string): Promise<RunEnd> {
  const run = await store.getRun(runId);
  const generations = await store.generations(runId);
  const completions = new Map<string, number>();
  const journal = join(executionDirOf(runDir), ".hankweave", "events", "events.jsonl");
  if (!existsSync(journal)) {
    // Say how the run ended and what its directory holds: a run that ended without a journal is the bug.
    const held = existsSync(runDir) ? readdirSync(runDir, { recursive: true, encoding: "utf8" }).sort() : [];
    throw new Error(
      `Run ${runId} ended ${run?.state}: ${run?.cause} with no journal at ${journal}; generation(s): ${JSON.stringify(generations.map((g) => g.facts.body))}; its directory holds: ${held.join(", ")}`,
    );
  }
  for (const line of readFileSync(journal, "utf8").split("\n")) {
    if (!line.includes('"codon.completed"')) continue;
    const event = JSON.parse(line) as { data: { codonId: string; success: boolean } };
    if (event.data.success)
      completions.set(event.data.codonId, (completions.get(event.data.codonId) ?? 0) + 1);
  }
  return {
    outcome: `${run?.state}: ${run?.cause}`,
    verdicts: generations.map((g) => g.facts.gates.map((v) => v.verdict).join("+")).join(" "),
    generations: generations.length,
    completions,
  };
}
