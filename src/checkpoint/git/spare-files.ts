import { closeSync, mkdir, mkdirSync, open, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The store's directory of spare files (beside `objects/`, so renames out of it stay on one disk). */
export const SPARE_FILES_DIR = "hankweave-spare-files";

/** Spares kept ready, and the count below which spares go before object directories. */
const SPARES_KEPT = 16;
const SPARES_LOW = 6;
/** Creations running at once in libuv's thread pool (four threads by default, shared by all file calls). */
const IN_FLIGHT = 4;

/** An empty file made ahead of time, open for writing: `path` is renamed to its final name once written. */
export interface SpareFile {
  readonly fd: number;
  readonly path: string;
}

/**
 * Files and object directories created ahead of time, off the checkpoint's path. Creating a file (a
 * new inode) is the dearest step of writing a loose object on a journaling file system: 0.23-0.29 ms on
 * this project's CI disk, against 0.02 ms to write and rename a file that already exists; an object's
 * directory (`objects/<2 hex>`) costs as much again when it is missing, which it is for most objects of
 * a new store and again after each consolidation (git's `prune-packed` removes what it empties).
 *
 * Spares are created by libuv's thread pool while codons run, open for writing with git's mode for
 * objects (read-only), and taken synchronously by `writeObject`, which creates the file itself when
 * none is ready. Creation callbacks run only when the event loop turns, which a run of fast codons does
 * every few milliseconds (`EventLoopTurns`), hence several creations in flight and a stock of spares.
 * Missing object directories are made the same way, one for each spare taken, so a short run does not
 * fill the store with empty directories.
 *
 * Only a run's writer, which holds the execution's lock, uses spares. A spare is renamed away whole once
 * written; one a kill left behind is unreferenced, and `start` removes it before making new ones.
 */
export class SpareFiles {
  readonly #dir: string;
  readonly #objectsDir: string;
  readonly #ready: SpareFile[] = [];
  /** Object directories (`00`..`ff`) missing when last looked at, and how many may be made now. */
  #missingDirs: string[] = [];
  #dirsAllowed = 0;
  #inFlight = 0;
  #sparesInFlight = 0;
  #started = false;
  #serial = 0;

  constructor(gitDir: string) {
    this.#dir = join(gitDir, SPARE_FILES_DIR);
    this.#objectsDir = join(gitDir, "objects");
  }

  /** Removes what an earlier process left, then keeps spares ready until `stop`. Idempotent. */
  start(): void {
    if (this.#started) return;
    this.#removeLeftovers();
    mkdirSync(this.#dir, { recursive: true });
    this.#started = true;
    this.objectDirsRemoved();
  }

  /** Looks again at which object directories are missing (after a consolidation removed some). */
  objectDirsRemoved(): void {
    if (!this.#started) return;
    let present: Set<string>;
    try {
      present = new Set(readdirSync(this.#objectsDir));
    } catch {
      present = new Set();
    }
    this.#missingDirs = OBJECT_DIRS.filter((name) => !present.has(name));
    this.#refill();
  }

  /** A ready spare, or undefined (the caller creates its file itself); starts making the next ones. */
  take(): SpareFile | undefined {
    const spare = this.#ready.pop();
    this.#dirsAllowed = Math.min(this.#dirsAllowed + 1, this.#missingDirs.length);
    this.#refill();
    return spare;
  }

  /** Closes and removes the ready spares; one still being created is removed when it arrives. */
  stop(): void {
    this.#started = false;
    this.#missingDirs = [];
    this.#dirsAllowed = 0;
    for (const spare of this.#ready.splice(0)) discard(spare);
  }

  /** Spares while few are ready or coming, then the allowed object directories, then spares again. */
  #refill(): void {
    while (this.#started && this.#inFlight < IN_FLIGHT) {
      const coming = this.#ready.length + this.#sparesInFlight;
      if (coming < SPARES_LOW) this.#makeSpare();
      else if (this.#dirsAllowed > 0) this.#makeObjectDir();
      else if (coming < SPARES_KEPT) this.#makeSpare();
      else return;
    }
  }

  #makeSpare(): void {
    this.#inFlight++;
    this.#sparesInFlight++;
    const path = join(this.#dir, `${process.pid}-${++this.#serial}`);
    open(path, "wx", 0o444, (error, fd) => {
      this.#inFlight--;
      this.#sparesInFlight--;
      // A spare that cannot be made (a full disk, a removed directory) is no checkpoint's error: objects
      // are then written the usual way, which reports the cause where it matters.
      if (error !== null) return;
      if (!this.#started) return discard({ fd, path });
      this.#ready.push({ fd, path });
      this.#refill();
    });
  }

  #makeObjectDir(): void {
    const name = this.#missingDirs.pop();
    this.#dirsAllowed--;
    if (name === undefined) return;
    this.#inFlight++;
    // Present already (git made it meanwhile) is as good as made; other failures leave it to the writer.
    mkdir(join(this.#objectsDir, name), () => {
      this.#inFlight--;
      this.#refill();
    });
  }

  #removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) rmSync(join(this.#dir, name), { force: true, recursive: true });
  }
}

/** Git's loose-object directories: the first two hex digits of an object id. */
const OBJECT_DIRS = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, "0"));

function discard(spare: SpareFile): void {
  closeSync(spare.fd);
  rmSync(spare.path, { force: true });
}
