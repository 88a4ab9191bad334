import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import type { Checkpointer } from "../../src/checkpoint/index.ts";
import type { Clock, EngineHooks, EventSink, EventStore } from "../../src/engine/index.ts";
import type { HankFile } from "../../src/hank/schema/index.ts";
import type { DataOf, JournaledType } from "../../src/journal/index.ts";
import { createWorkspaceHooks } from "../../src/runner/workspace-hooks.ts";
import type { ExecutionLayout } from "../../src/workspace/execution-layout.ts";
import { createNullCheckpointer } from "./null-checkpointer.ts";
import type { SplitTimer } from "./split-timer.ts";

/**
 * What is persisted at each codon boundary:
 * - `memory`: nothing (events are enveloped and reduced, never written): the engine alone;
 * - `journal`: the CLI's workspace hooks without git: the JSONL journal and the `state.json` snapshot;
 * - `durable`: the same with `--durable`: the journal fsynced at every codon boundary;
 * - `full`: the CLI's workspace hooks: journal, snapshot, rig-setup and completed git checkpoints.
 */
export type EngineMode = "memory" | "journal" | "durable" | "full";

export interface HookSetup {
  readonly layout: ExecutionLayout;
  readonly hankDir: string;
  readonly hank: HankFile;
  readonly sink: EventSink;
  readonly clock: Clock;
  /** Sees every git command line (counting, tracing). */
  readonly onGit: (args: readonly string[]) => void;
}

/** The hooks of a mode and the checkpointer behind them (closed at the end of a run, as the CLI does). */
export interface ModeHooks {
  readonly hooks: EngineHooks;
  readonly checkpointer: Checkpointer;
}

/**
 * The hooks of each mode: `full` is exactly what `hankweave --headless` plugs into the engine, and
 * `journal` the same with a checkpointer that records nothing. `atBoundary` runs first at every codon
 * boundary, as the runner's durable-journal fsync does.
 */
export function modeHooks(
  mode: EngineMode,
  setup: HookSetup,
  atBoundary?: () => void,
): ModeHooks | undefined {
  const { layout } = setup;
  if (mode === "memory") return undefined;
  const checkpointer =
    mode === "full"
      ? createGitCheckpointer({
          gitDir: layout.checkpointGitDir,
          workTree: layout.agentRoot,
          clock: setup.clock,
          trace: setup.onGit,
          runPack: true,
        })
      : createNullCheckpointer();
  const hooks = createWorkspaceHooks({
    layout,
    hankDir: setup.hankDir,
    processEnv: process.env,
    sink: setup.sink,
    clock: setup.clock,
    checkpointer,
    ignoreRigFailures: false,
    hank: setup.hank,
    overwriteOutput: false,
  });
  if (atBoundary === undefined) return { hooks, checkpointer };
  return {
    checkpointer,
    hooks: {
      ...hooks,
      persist(plan) {
        atBoundary();
        hooks.persist?.(plan);
      },
    },
  };
}

/** The store with every append timed as journal work. */
export function timedStore(store: EventStore, timer: SplitTimer): EventStore {
  return {
    append: <T extends JournaledType>(draft: { readonly type: T; readonly data: DataOf<T> }) =>
      timer.sync("journal", () => store.append(draft)),
    appendAll: (drafts) =>
      timer.sync("journal", () =>
        store.appendAll ? store.appendAll(drafts) : drafts.map((draft) => store.append(draft)),
      ),
  };
}
