import { join } from "node:path";

/**
 * Where everything of one execution lives (reference 1.13). Pure path derivation: nothing here touches
 * the disk, so every other module asks this one instead of joining paths itself.
 */
export interface ExecutionLayout {
  readonly executionDir: string;
  /** Runtime state: journal, snapshot, lock, checkpoints. Never visible to the agent's checkpoints. */
  readonly stateDir: string;
  readonly statePath: string;
  readonly stateBackupPath: string;
  readonly lockPath: string;
  readonly metaPath: string;
  readonly eventsDir: string;
  readonly eventsPath: string;
  readonly runsDir: string;
  readonly logsDir: string;
  readonly checkpointGitDir: string;
  readonly archiveManifestPath: string;
  /** The agent's working directory and the checkpoint work tree. */
  readonly agentRoot: string;
  /** The read-only link (or copy) of the input data inside agentRoot. */
  readonly dataLink: string;
  readonly rigArchiveDir: string;
}

export const DATA_LINK_NAME = "read_only_data_source";
export const STATE_DIR_NAME = ".hankweave";

export function executionLayout(executionDir: string): ExecutionLayout {
  const stateDir = join(executionDir, STATE_DIR_NAME);
  const agentRoot = join(executionDir, "agentRoot");
  return {
    executionDir,
    stateDir,
    statePath: join(stateDir, "state.json"),
    stateBackupPath: join(stateDir, "state.json.bak"),
    lockPath: join(stateDir, "runtime.lock"),
    metaPath: join(stateDir, "execution-meta.json"),
    eventsDir: join(stateDir, "events"),
    eventsPath: join(stateDir, "events", "events.jsonl"),
    runsDir: join(stateDir, "runs"),
    logsDir: join(stateDir, "logs"),
    checkpointGitDir: join(stateDir, "checkpoints", ".hankweavecheckpoints"),
    archiveManifestPath: join(stateDir, "archive-manifest.json"),
    agentRoot,
    dataLink: join(agentRoot, DATA_LINK_NAME),
    rigArchiveDir: join(executionDir, "rigArchive"),
  };
}
