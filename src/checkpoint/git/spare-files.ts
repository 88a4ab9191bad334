import { closeSync, mkdir, mkdirSync, open, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The store's directory of spares (beside `objects/`, so renames out of it stay on one disk). */
export const SPARE_FILES_DIR = "hankweave-spare-files";

/** Spare files kept ready, and the count below which files go before directories. */
const FILES_KEPT = 16;
const FILES_LOW = 6;
/** Spare directories kept ready. */
const DIRECTORIES_KEPT = 8;
/**
 * Creations running at once in libuv's thread pool (four threads by default, shared by all file calls).
 * Two, not four: creations in one directory queue on its lock, so more threads add no spares, only
 * threads that take CPU from the run on a small machine. A 200-step durable `loop()` on 2 vCPUs: 2.58
 * ms per step (median of 11 fresh processes) and 3.5 ms CPU with two, 3.35 and 5.1 with four.
 */
const IN_FLIGHT = 2;

/** An empty file made ahead of time, open for writing: `path` is renamed to its final name once written. */
export interface SpareFile {
  readonly fd: number;
  readonly path: string;
}

/**
 * Files and directories created ahead of time, off the checkpoint's path. Creating a file (a new
 * inode) is the dearest step of writing a loose object on a journaling file system: 0.23-0.29 ms on
 * this project's CI disk, against 0.02 ms to write and rename a file that already exists; an object's
 * directory (`objects/<2 hex>`) costs 0.05-0.4 ms more when it is missing, which it is for most objects
 * of a new store and again after each consolidation (git's `prune-packed` removes what it empties),
 * against 0.02 ms to rename an empty directory into place.
 *
 * Spares are created by libuv's thread pool while codons run and taken synchronously: a file, open for
 * writing with git's mode for objects (read-only), by `writeObject`, which creates the file itself when
 * none is ready; a directory by `provideDirectory`. Creation callbacks run only when the event loop
 * turns, which a run of fast codons does every few milliseconds (`EventLoopTurns`), hence a stock
 * of each and more than one creation in flight.
 *
 * Only a run's writer, which holds the execution's lock, uses spares. A spare is renamed away whole once
 * used; one a kill left behind is unreferenced, and `start` removes it before making new ones.
 */
export class SpareFiles {
  readonly #dir: string;
  readonly #files: SpareFile[] = [];
  readonly #directories: string[] = [];
  #filesInFlight = 0;
  #directoriesInFlight = 0;
  #started = false;
  #serial = 0;
  /** `stop` callers waiting for the creations still running to arrive. */
  readonly #whenIdle: (() => void)[] = [];

  constructor(gitDir: string) {
    this.#dir = join(gitDir, SPARE_FILES_DIR);
  }

  /** Removes what an earlier process left, then keeps spares ready until `stop`. Idempotent. */
  start(): void {
    if (this.#started) return;
    rmSync(this.#dir, { recursive: true, force: true });
    mkdirSync(this.#dir, { recursive: true });
    this.#started = true;
    this.#refill();
  }

  /** Removes what an earlier process left, for a writer that makes no spares (a run pack's). */
  clearLeftovers(): void {
    if (!this.#started) rmSync(this.#dir, { recursive: true, force: true });
  }

  /** A ready spare file, or undefined (the caller creates its file itself); starts making more. */
  take(): SpareFile | undefined {
    const spare = this.#files.pop();
    this.#refill();
    return spare;
  }

  /**
   * Makes the missing directory `dir` exist: a spare renamed there, else a new one. A directory made
   * meanwhile by someone else (git) wins: the spare is dropped.
   */
  provideDirectory(dir: string): void {
    const spare = this.#directories.pop();
    this.#refill();
    if (spare !== undefined) {
      try {
        renameSync(spare, dir);
        return;
      } catch {
        rmSync(spare, { recursive: true, force: true });
      }
    }
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Closes and removes the ready spares. One still being created is removed when it arrives; the
   * promise resolves once none is left to arrive, so the store can be removed as soon as it settles.
   */
  stop(): Promise<void> {
    this.#started = false;
    for (const spare of this.#files.splice(0)) discard(spare);
    for (const spare of this.#directories.splice(0)) rmSync(spare, { recursive: true, force: true });
    if (this.#filesInFlight + this.#directoriesInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  /** Files while few are ready or coming, then directories, then files up to their stock. */
  #refill(): void {
    while (this.#started && this.#filesInFlight + this.#directoriesInFlight < IN_FLIGHT) {
      const files = this.#files.length + this.#filesInFlight;
      const directories = this.#directories.length + this.#directoriesInFlight;
      if (files < FILES_LOW) this.#makeFile();
      else if (directories < DIRECTORIES_KEPT) this.#makeDirectory();
      else if (files < FILES_KEPT) this.#makeFile();
      else return;
    }
  }

  #makeFile(): void {
    this.#filesInFlight++;
    const path = this.#nextPath("f");
    open(path, "wx", 0o444, (error, fd) => {
      this.#filesInFlight--;
      // A spare that cannot be made (a full disk, a removed directory) is no checkpoint's error: objects
      // are then written the usual way, which reports the cause where it matters.
      if (error !== null) return this.#arrived(false);
      if (!this.#started) discard({ fd, path });
      else this.#files.push({ fd, path });
      this.#arrived(true);
    });
  }

  #makeDirectory(): void {
    this.#directoriesInFlight++;
    const path = this.#nextPath("d");
    mkdir(path, (error) => {
      this.#directoriesInFlight--;
      if (error !== null) return this.#arrived(false);
      if (!this.#started) rmSync(path, { recursive: true, force: true });
      else this.#directories.push(path);
      this.#arrived(true);
    });
  }

  /**
   * After a creation ended: make more while started (not after a failure, which would only fail
   * again), else wake `stop` once nothing is in flight.
   */
  #arrived(made: boolean): void {
    if (this.#started && made) this.#refill();
    if (this.#filesInFlight + this.#directoriesInFlight > 0) return;
    for (const resolve of this.#whenIdle.splice(0)) resolve();
  }

  #nextPath(kind: "f" | "d"): string {
    return join(this.#dir, `${kind}-${process.pid}-${++this.#serial}`);
  }
}

function discard(spare: SpareFile): void {
  closeSync(spare.fd);
  rmSync(spare.path, { force: true });
}
