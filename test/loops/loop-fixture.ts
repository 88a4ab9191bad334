import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqliteLoopStore } from "../../src/daemon/store/sqlite-loop-store.ts";
import { isTerminalState } from "../../src/events/loop-run-states.ts";
import { type AdmitRequest, admitRun } from "../../src/loops/coordinator/admit-run.ts";
import { type DriverDeps, driverOwner } from "../../src/loops/coordinator/driver-context.ts";
import { loadDefinition } from "../../src/loops/definition/load-definition.ts";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import { systemClock } from "../../src/util/clock.ts";

/**
 * A Loop laid out in a temp directory for end-to-end tests: a scripted body, gate and hook scripts
 * beside the definition, a data directory, and an SQLite store. Everything runs for real (runner, git,
 * processes); only the agent is the offline scripted one.
 */
export interface LoopFixture {
  readonly dir: string;
  readonly store: LoopStore;
  readonly home: string;
  deps(extra?: Partial<DriverDeps>): DriverDeps;
  admit(extra?: Partial<AdmitRequest>): ReturnType<typeof admitRun>;
  write(path: string, text: string, executable?: boolean): void;
  /**
   * Stops the runs a driver still holds and waits until each has ended: a daemon's close leaves its
   * drivers in flight (as a crash would), and a body left running keeps writing into `dir`.
   */
  stopDriven(): Promise<void>;
  remove(): Promise<void>;
}

export interface LoopSpec {
  /** The body codons' scripts, in order (each a scripted codon checkpointing everything). */
  readonly body: readonly string[];
  /** The definition's TOML after the header lines (id, name, owner, cadence, hank, data, model). */
  readonly toml: string;
  /** Files beside the definition (gate scripts...), made executable. */
  readonly scripts?: Readonly<Record<string, string>>;
  /** Extra fields of every body codon (a retry policy...). */
  readonly codon?: Readonly<Record<string, unknown>>;
}

let counter = 0;

export async function loopFixture(spec: LoopSpec): Promise<LoopFixture> {
  const dir = mkdtempSync(join(tmpdir(), "loop-e2e-"));
  const write = (path: string, text: string, executable = false) => {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    if (executable) chmodSync(full, 0o755);
  };
  const codons = spec.body.map((script, i) => ({
    id: `step${i + 1}`,
    name: `step ${i + 1}`,
    model: "scripted",
    continuationMode: "fresh",
    promptText: script,
    checkpointedFiles: ["**"],
    ...spec.codon,
  }));
  write(
    "hank/hank.json",
    JSON.stringify({ meta: { name: "loop body", version: "1" }, hank: codons }, null, 2),
  );
  write("data/README", "data\n");
  write(
    "notify.sh",
    `#!/bin/sh\ncat >> "${join(dir, "notified.log")}"\necho >> "${join(dir, "notified.log")}"\n`,
    true,
  );
  for (const [path, text] of Object.entries(spec.scripts ?? {})) write(path, text, true);
  write(
    "demo.loop.toml",
    `id = "demo"\nname = "Demo"\nowner = "tests"\ncadence = "manual"\nescalation = ["./notify.sh"]\nhank = "./hank"\ndata = "./data"\nmodel = "scripted"\n${spec.toml}`,
  );
  const store = await openSqliteLoopStore({ path: join(dir, "loops.db") });
  const home = join(dir, "home");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    HANKWEAVE_EXECUTIONS_DIR: join(dir, "executions"),
  };
  const clock = systemClock();
  return {
    dir,
    store,
    home,
    write,
    deps: (extra = {}) => ({
      store,
      clock,
      newId: () => `id${++counter}`,
      owner: driverOwner(`t${++counter}`),
      env,
      // How often a driver looks for commands while a body runs: often enough for a test to stay quick,
      // rarely enough that polling the store is not what the test spends its CPU on.
      pollMs: 100,
      ...extra,
    }),
    admit: async (extra = {}) => {
      const loaded = loadDefinition(join(dir, "demo.loop.toml"));
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
      return admitRun({
        store,
        definition: loaded.definition,
        home,
        clock,
        newId: () => `run${++counter}`,
        ...extra,
      });
    },
    stopDriven: async () => {
      const driven = (await store.listRuns({ live: true })).filter((run) => run.leaseOwner !== null);
      for (const run of driven)
        await store.addCommand(run.id, { type: "stop", by: "test" }, new Date().toISOString());
      for (const run of driven) {
        await until(async () => isTerminalState((await store.getRun(run.id))?.state ?? "failed"), "stopped");
      }
    },
    remove: async () => {
      await store.close();
      // A daemon's close leaves drivers in flight (as a crash would); one may still be laying out a
      // generation's directory, so a removal that meets a directory filling up tries again.
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
}

/** A gate script that passes once the workspace's `count` file reaches `n` (exit 1 below it). */
export function countGate(n: number): string {
  return `#!/bin/sh\nc=$(cat count 2>/dev/null || echo 0)\necho "count is $c"\n[ "$c" -ge ${n} ] && exit 0\nexit 1\n`;
}

/** A body step that adds one to the workspace's `count` file. */
export const INCREMENT = "@run n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count\n@say counted";

/**
 * Polls `probe` until it returns a value (every 50 ms): for a state another task reaches. The 10-minute
 * limit only turns a hang into a failure; nothing here depends on how fast the machine is.
 */
export async function until<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
