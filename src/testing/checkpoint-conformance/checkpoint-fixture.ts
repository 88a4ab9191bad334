import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Checkpointer, CheckpointType, CommitInput } from "../../checkpoint/index.ts";

/** What a conformance suite hands an implementation's factory. */
export interface ConformanceDirs {
  /** The agent workspace, the checkpoint work tree. */
  readonly workTree: string;
  /** An empty directory outside the work tree where the implementation keeps its store. */
  readonly stateDir: string;
  readonly clock: { now(): number };
}

export type MakeCheckpointer = (dirs: ConformanceDirs) => Checkpointer;

/** Clock start of every fixture: 2025-01-01T00:00:00.000Z. */
export const FIXTURE_EPOCH = Date.UTC(2025, 0, 1);

/**
 * A temporary execution-like layout: `agentRoot/` with the data link `read_only_data_source` pointing
 * at `data/` (one file, `input.csv`), a settable clock, and small file helpers relative to the work tree.
 */
export interface Fixture {
  readonly root: string;
  readonly dirs: ConformanceDirs;
  readonly dataDir: string;
  /** The clock's current value; tests set it before a commit to pin the timestamp. */
  time: number;
  /** A fresh checkpointer over the same directories (a new process, as far as the store can tell). */
  open(): Checkpointer;
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string | undefined>;
  exists(path: string): Promise<boolean>;
  remove(path: string): Promise<void>;
  abs(path: string): string;
}

export async function withFixture(
  make: MakeCheckpointer,
  body: (fixture: Fixture) => Promise<void>,
): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "hankweave-checkpoint-"));
  try {
    await body(await createFixture(root, make));
  } finally {
    // A checkpointer the test did not close may still be making spare files in the store (see
    // spare-files.ts): a removal that meets one arriving is retried.
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  }
}

async function createFixture(root: string, make: MakeCheckpointer): Promise<Fixture> {
  const workTree = join(root, "agentRoot");
  const dataDir = join(root, "data");
  await mkdir(workTree, { recursive: true });
  await mkdir(join(root, "state"), { recursive: true });
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "input.csv"), "a,b\n1,2\n");
  await symlink(dataDir, join(workTree, "read_only_data_source"));
  const abs = (path: string): string => join(workTree, path);
  const fixture: Fixture = {
    root,
    dataDir,
    time: FIXTURE_EPOCH,
    dirs: { workTree, stateDir: join(root, "state"), clock: { now: () => fixture.time } },
    open: () => make(fixture.dirs),
    abs,
    write: async (path, text) => {
      await mkdir(dirname(abs(path)), { recursive: true });
      await writeFile(abs(path), text);
    },
    read: (path) => readFile(abs(path), "utf8").catch(() => undefined),
    exists: (path) =>
      lstat(abs(path)).then(
        () => true,
        () => false,
      ),
    remove: (path) => rm(abs(path), { recursive: true, force: true }),
  };
  return fixture;
}

/** A checkpointer over the fixture, initialized, with run `run-1` started. */
export async function startedCheckpointer(fixture: Fixture, runId = "run-1"): Promise<Checkpointer> {
  const checkpointer = fixture.open();
  await checkpointer.init();
  await checkpointer.startRun(runId);
  return checkpointer;
}

/** Commit input with the codon fields filled in from `codonId`. */
export function codon(
  codonId: string,
  globs: readonly string[],
  extra: { readonly changedPaths?: readonly string[]; readonly type?: CheckpointType } = {},
): CommitInput {
  return {
    codonId,
    codonName: `Codon ${codonId}`,
    type: extra.type ?? "completed",
    globs,
    ...(extra.changedPaths === undefined ? {} : { changedPaths: extra.changedPaths }),
  };
}

/** One named conformance case; `run` resolves when the behaviour holds and rejects otherwise. */
export type ConformanceCase = readonly [name: string, run: (make: MakeCheckpointer) => Promise<void>];
