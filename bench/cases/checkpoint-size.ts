import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { systemClock } from "../../src/engine/index.ts";
import { engineCase } from "./engine-case.ts";
import { createWorkspaceFiles, workspaceFile } from "./workspace-files.ts";

export interface CheckpointSizeArgs {
  readonly files: number;
  /** Loop codons run through the engine after the setup codon, which records the workspace. */
  readonly codons: number;
  /** Direct checkpointer commits of one known changed path. */
  readonly commits: number;
}

export interface CheckpointSizeResult {
  /** Checkpoint ms of each loop codon in a `--headless`-equivalent run (its completed commit). */
  readonly perCodonMs: number[];
  /** The setup codon's checkpoint, which records the whole workspace (its shell made it scan). */
  readonly initialMs: number;
  readonly gitSpawnsPerCodon: number;
  /** `Checkpointer.commit` of one changed file, given as `changedPaths` (the incremental primitive). */
  readonly commitMs: number[];
  readonly setupMs: number;
  /** `git add -A` of the same workspace into a fresh repository, in the same process and run. */
  readonly gitAddMs: number;
}

/** The changed file, a tracked one: a line appended per codon, so every checkpoint records a change. */
const CHANGED = workspaceFile(0);

export async function checkpointSize(args: CheckpointSizeArgs): Promise<CheckpointSizeResult> {
  const run = await engineCase({
    fixture: {
      shape: { kind: "loop", iterations: args.codons },
      prompt: `@append ${CHANGED} one more line`,
      checkpointedFiles: ["**"],
      setupPrompt: "@run true",
    },
    mode: "full",
    workspaceFiles: args.files,
  });
  if (run.status !== "completed") throw new Error(`checkpoint-size run ${run.status}`);
  const [initialMs = 0, ...perCodonMs] = run.checkpointPerCodon;
  return {
    perCodonMs,
    initialMs,
    gitSpawnsPerCodon: (run.gitSpawns - run.startRunGitSpawns) / run.codons,
    commitMs: await directCommits(args.files, args.commits),
    setupMs: run.setupMs,
    gitAddMs: gitAddAll(args.files),
  };
}

/**
 * The peer of the initial snapshot: `git add -A` of a workspace of `files` files into a new
 * repository (git's own way of recording a whole tree: a loose object per file and the index).
 */
function gitAddAll(files: number): number {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-add-"));
  try {
    createWorkspaceFiles(root, files);
    const git = (args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
    git(["init", "-q"]);
    const start = performance.now();
    git(["add", "-A"]);
    return performance.now() - start;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A workspace of `files` files, all recorded once, then `commits` commits of one changed path each. */
async function directCommits(files: number, commits: number): Promise<number[]> {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-commit-"));
  try {
    const workTree = join(root, "agentRoot");
    mkdirSync(workTree);
    createWorkspaceFiles(workTree, files);
    const checkpointer = createGitCheckpointer({ gitDir: join(root, "git"), workTree, clock: systemClock() });
    await checkpointer.init();
    await checkpointer.startRun("bench");
    const base = { codonId: "step", codonName: "Step", type: "completed" as const, globs: ["**"] };
    await checkpointer.commit(base);
    const times: number[] = [];
    for (let i = 0; i < commits; i++) {
      appendFileSync(join(workTree, CHANGED), `version ${i}\n`);
      const start = performance.now();
      await checkpointer.commit({ ...base, changedPaths: [CHANGED] });
      times.push(performance.now() - start);
    }
    // Waits for the store's background packing, which would otherwise write while the folder is removed.
    await checkpointer.close?.();
    return times;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
