import { readdirSync } from "node:fs";
import { join } from "node:path";
import { packLooseObjects } from "./pack-loose-objects.ts";
import type { RunGit } from "./run-git.ts";

/**
 * Loose objects written before a consolidation starts in the background. Each consolidation's
 * `prune-packed` removes the object directories it empties, and the objects written after it create
 * them again: about 0.63 directories per object at 256, 0.25 at 1024. A directory costs an inode, 0.3 to
 * 0.7 ms on this project's CI disk, so 1024 brings that to 0.08-0.18 ms per object written (0.19-0.44
 * at 256), while the loose objects between two consolidations stay far below git's `gc.auto` (6,700).
 */
export const CONSOLIDATE_EVERY_OBJECTS = 1024;
/** Loose objects left at `close` above which the store is consolidated before the run ends. */
export const CONSOLIDATE_AT_CLOSE_OBJECTS = 32;
/**
 * Run packs sealed (`RunPack`, at most one a second) between two background consolidations, and packs in
 * the store above which `settle` consolidates: git looks an object up in every pack's index in turn, so
 * a run of an hour must not leave 3,600 of them. The geometric repack merges the small ones and keeps
 * their number logarithmic in the store's size.
 */
export const CONSOLIDATE_EVERY_PACKS = 32;
export const CONSOLIDATE_AT_CLOSE_PACKS = 16;

/**
 * One delta-search thread, and glibc's allocator told not to hand freed memory back to the kernel
 * (`trim_threshold`, 256 MB) during a process that lasts a fraction of a second. Packing 1,000 loose
 * commits here took 560-710 ms with the defaults, almost all of it in `madvise` (memory trimmed after
 * each object, 0.1 ms a call on this VM) and in the threads' futexes, and 200-310 ms with these two
 * (`git repack` timed on a copy of the same store, 4 rounds). Other C libraries ignore the variable.
 */
const REPACK_ARGS = ["repack", "-d", "-q", "--geometric=2", "--threads=1"];
const REPACK_ENV = { GLIBC_TUNABLES: "glibc.malloc.trim_threshold=268435456" };

/**
 * Keeps the store compact. Checkpoint objects are written loose (one file each, cheap to write); every
 * `CONSOLIDATE_EVERY_OBJECTS` of them, one `git repack -d --geometric=2` packs the loose objects
 * (deltas against each other: an appended file costs its new lines, not a new copy) and merges small
 * packs so their number grows with the logarithm of the store. It runs in the background while codons
 * go on: git's packing is safe beside writers (a new pack is complete before the loose copies or the
 * merged packs are removed, and objects written meanwhile stay loose for the next round). `settle`
 * waits for it and packs what is left, so a finished run leaves a few files.
 */
export class StoreConsolidation {
  #loose = 0;
  #sealed = 0;
  #running: Promise<void> | undefined;
  #lastError: string | undefined;

  constructor(
    private readonly git: RunGit,
    private readonly gitDir: string,
    private readonly every = CONSOLIDATE_EVERY_OBJECTS,
  ) {}

  /** Counts objects written loose; starts a background consolidation once enough accumulated. */
  wrote(objects: number): void {
    this.#loose += objects;
    if (this.#loose >= this.every && this.#running === undefined) this.#start();
  }

  /** Counts run packs sealed; starts a background consolidation once enough accumulated. */
  sealedPack(): void {
    this.#sealed++;
    if (this.#sealed >= CONSOLIDATE_EVERY_PACKS && this.#running === undefined) this.#start();
  }

  /** Why the last consolidation failed, if it did (the store stays correct, only larger). */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /**
   * Waits for a running consolidation, then consolidates once more when enough is still loose: from
   * this process when the loose objects are few and small (`packLooseObjects`), else with git.
   */
  async settle(): Promise<void> {
    await this.#running;
    if (this.#sealed > 0 && packCount(this.gitDir) > CONSOLIDATE_AT_CLOSE_PACKS) this.#start();
    await this.#running;
    if (this.#loose < CONSOLIDATE_AT_CLOSE_OBJECTS && looseSample(this.gitDir) < 2) return;
    if (this.#packHere() === undefined) this.#start();
    await this.#running;
  }

  #packHere(): number | undefined {
    try {
      const packed = packLooseObjects(this.gitDir);
      if (packed !== undefined) this.#loose = 0;
      return packed;
    } catch (error) {
      // The objects are still loose and the store correct: git gets its turn.
      this.#lastError = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  }

  #start(): void {
    this.#loose = 0;
    this.#sealed = 0;
    this.#running = this.git({ args: REPACK_ARGS, env: REPACK_ENV })
      .then(() => {
        this.#lastError = undefined;
      })
      .catch((error: unknown) => {
        this.#lastError = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        this.#running = undefined;
      });
  }
}

/**
 * Loose objects in one of the 256 object directories, as `git gc --auto` estimates: about 1/256 of the
 * loose objects, earlier runs' included.
 */
function looseSample(gitDir: string): number {
  try {
    return readdirSync(join(gitDir, "objects", "17")).filter((name) => !name.startsWith("tmp_")).length;
  } catch {
    return 0;
  }
}

/** The store's packs (their indexes: a pack without one is not git's yet). */
function packCount(gitDir: string): number {
  try {
    return readdirSync(join(gitDir, "objects", "pack")).filter((name) => name.endsWith(".idx")).length;
  } catch {
    return 0;
  }
}
