import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
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
 * - `full`: the CLI's workspace hooks: journal, snapshot, rig-setup and completed git checkpoints.
 */
export type EngineMode = "memory" | "journal" | "full";

export interface HookSetup {
  readonly layout: ExecutionLayout;
  readonly hankDir: string;
  readonly hank: HankFile;
  readonly sink: EventSink;
  readonly clock: Clock;
  /** Sees every git command line (counting, tracing). */
  readonly onGit: (args: readonly string[]) => void;
}

/**
 * The hooks of each mode: `full` is exactly what `hankweave --headless` plugs into the engine, and
 * `journal` the same with a checkpointer that records nothing.
 */
export function modeHooks(mode: EngineMode, setup: HookSetup): EngineHooks | undefined {
  const { layout } = setup;
  if (mode === "memory") return undefined;
  const checkpointer =
    mode === "journal"
      ? createNullCheckpointer()
      : createGitCheckpointer({
          gitDir: layout.checkpointGitDir,
          workTree: layout.agentRoot,
          clock: setup.clock,
          trace: setup.onGit,
        });
  return createWorkspaceHooks({
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
