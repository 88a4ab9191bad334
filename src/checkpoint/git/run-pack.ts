import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { CheckpointError } from "../checkpoint-error.ts";
import type { ObjectSink, ObjectType } from "./loose-objects.ts";
import { moveRef } from "./move-ref.ts";
import type { OpenRef } from "./open-ref.ts";
import { completePackFile, encodeEntry, type LocatedEntry, placePack } from "./write-pack.ts";

/** Where a run's pack grows until it is sealed: beside `objects/`, out of git's sight. */
export const RUN_PACK_DIR = "hankweave-run-pack";

/**
 * How long a written checkpoint may wait for its seal: the lag bound for readers in other processes
 * (plain `git log`, `hankweave checkpoints` from another shell). One second keeps a person's view of
 * a live run current, and makes at most one pack a second, which the background repack merges
 * geometrically; a codon every few milliseconds (a scripted loop) still shares one seal among hundreds
 * of checkpoints, so the seal's cost (a sync, an index, two renames: about 1-3 ms) stays off the codon.
 */
export const SEAL_LAG_MS = 1000;

/** Bodies shorter than this are stored uncompressed (zlib's set-up costs more than it saves). */
const STORE_BELOW_BYTES = 1024;
/** zlib's level for the others: speed first, as for loose objects (`git repack` recompresses later). */
const DEFLATE_LEVEL = 1;

/** The file of `runId`'s unsealed pack (run ids are file-name safe, see `isValidRunId`). */
export function runPackPath(gitDir: string, runId: string): string {
  return join(gitDir, RUN_PACK_DIR, `${runId}.pack`);
}

export interface RunPackOptions {
  readonly gitDir: string;
  readonly run: {
    readonly runId: string;
    readonly ref: string;
    readonly tip: string;
    readonly openRef: OpenRef;
  };
  /** Milliseconds after a checkpoint is written within which the pack is sealed. Default `SEAL_LAG_MS`. */
  readonly sealLagMs?: number;
  /** Called after each seal that put a pack into the store (the store's consolidation counts them). */
  readonly onSealed?: () => void;
}

/** The pack's file while it grows: descriptor, path, and inode (to notice a recovery took it). */
interface GrowingFile {
  readonly fd: number;
  readonly ino: number;
}

/**
 * A run's checkpoints written into one pack that grows by one write per checkpoint (`writeCheckpoint`),
 * instead of one new file per object: creating a file costs 0.5-0.8 ms on this project's CI disk, an
 * append to an open file 5 us. Git cannot read the pack until it is sealed (`seal`: header, checksum,
 * index, both put in place), so the run's branch stays on the last checkpoint sealed into the store
 * and is moved onto the newest one by `seal`.
 *
 * Who sees what: the owner seals before anything of its own reads the store (a git process it runs,
 * `list`, `flush`, the end of the run); other processes see the line up to the last seal, which a
 * timer (unref'd) makes at most `sealLagMs` after a checkpoint was written.
 *
 * A kill leaves the branch on a complete checkpoint (the last one sealed) and the pack's file with every
 * checkpoint acknowledged since (each `writeCheckpoint` writes the whole checkpoint, its commit last);
 * `recoverRunPacks`, run by every holder of the execution's lock before it writes, seals a copy of that
 * file and moves the branch onto its newest checkpoint. A write that fails (a full disk) is cut off
 * the file and rejects; a seal that fails leaves the file as it was, to be sealed by the next `seal`
 * or by recovery.
 */
export class RunPack implements ObjectSink {
  readonly #gitDir: string;
  readonly #path: string;
  readonly #ref: string;
  readonly #openRef: OpenRef;
  readonly #lagMs: number;
  readonly #onSealed: () => void;
  #file: GrowingFile | undefined;
  /** Entries in the file, and those put since the last write (with their ids and bytes). */
  #located: LocatedEntry[] = [];
  #pendingLocated: LocatedEntry[] = [];
  #pending: Buffer[] = [];
  #ids = new Set<string>();
  /** Bytes in the file (the 12 of the header first), and with the pending ones. */
  #written = 12;
  #size = 12;
  /** What the branch names on disk, and the newest checkpoint written to the file. */
  #base: string;
  #tip: string;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: RunPackOptions) {
    this.#gitDir = options.gitDir;
    this.#path = runPackPath(options.gitDir, options.run.runId);
    this.#ref = options.run.ref;
    this.#openRef = options.run.openRef;
    this.#lagMs = options.sealLagMs ?? SEAL_LAG_MS;
    this.#onSealed = options.onSealed ?? (() => undefined);
    this.#base = options.run.tip;
    this.#tip = options.run.tip;
  }

  put(type: ObjectType, body: Buffer, id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    const encoded = encodeEntry({ id, type, body }, this.#size, DEFLATE_LEVEL, STORE_BELOW_BYTES);
    this.#pendingLocated.push(encoded.located);
    this.#pending.push(...encoded.chunks);
    this.#size += encoded.bytes;
    return true;
  }

  /** Writes the checkpoint's objects, its commit (`put` last) among them, in one write; arms the seal. */
  writeCheckpoint(commit: string): void {
    this.#write();
    this.#tip = commit;
    this.#timer ??= setTimeout(() => this.#sealOnTimer(), this.#lagMs).unref();
  }

  /**
   * Seals the file into the store and moves the branch onto the newest checkpoint; nothing when nothing
   * was written since the last seal. The next `put` starts a new file. When a recovery took the file
   * (a process that holds the lock now; this one lost it), lets go of it instead: see `#taken`.
   */
  seal(): void {
    this.#clearTimer();
    this.#write();
    const file = this.#file;
    if (file === undefined) return;
    if (this.#taken(file)) {
      this.drop();
      return;
    }
    // The file stays at its path until the branch is moved: a kill before that leaves it to recovery.
    const checksum = completePackFile(file.fd, this.#written, this.#located.length);
    placePack(this.#path, this.#located, checksum, join(this.#gitDir, "objects", "pack"), true);
    if (this.#tip !== this.#base) moveRef(this.#gitDir, this.#ref, this.#tip, this.#base, this.#openRef);
    this.#base = this.#tip;
    this.#file = undefined;
    closeQuietly(file.fd);
    rmSync(this.#path, { force: true });
    this.#located = [];
    this.#ids = new Set();
    this.#written = 12;
    this.#size = 12;
    this.#onSealed();
  }

  /** Lets go of the file without sealing it (the lock is lost): recovery seals it. */
  drop(): void {
    this.#clearTimer();
    if (this.#file !== undefined) closeQuietly(this.#file.fd);
    this.#file = undefined;
    this.#discardPending();
  }

  /**
   * A timer's seal. A failure (a full disk) leaves the checkpoints in the file, is tried again after the
   * same lag (a parked run writes no checkpoint to re-arm it), and is reported by the next boundary's
   * seal if it persists; it never escapes as an uncaught error.
   */
  #sealOnTimer(): void {
    this.#timer = undefined;
    try {
      this.seal();
    } catch {
      if (this.#file !== undefined) this.#timer = setTimeout(() => this.#sealOnTimer(), this.#lagMs).unref();
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * The file is no longer at its path (recovery seals a copy, then removes it): another process
   * recovered the run, so this one lost the execution's lock, and what it writes from here is not
   * the store's. A `stat` and an `fstat`: microseconds, once per checkpoint.
   */
  #taken(file: GrowingFile): boolean {
    try {
      return statSync(this.#path).ino !== file.ino;
    } catch {
      return true;
    }
  }

  #write(): void {
    if (this.#pending.length === 0) return;
    const file = this.#open();
    if (this.#taken(file)) {
      this.drop();
      throw new CheckpointError(
        "run-pack-taken",
        `The run's pack ${this.#path} was sealed by another process (it holds the execution's lock now): this process stops writing checkpoints.`,
      );
    }
    const bytes = Buffer.concat(this.#pending);
    try {
      for (let done = 0; done < bytes.length; ) {
        done += writeSync(file.fd, bytes, done, bytes.length - done, this.#written + done);
      }
    } catch (error) {
      // A partial write (a full disk) must not stay in the file: recovery would seal a torn checkpoint.
      ftruncateQuietly(file.fd, this.#written);
      this.#discardPending();
      throw error;
    }
    this.#written = this.#size;
    this.#located.push(...this.#pendingLocated);
    this.#pendingLocated = [];
    this.#pending = [];
  }

  #open(): GrowingFile {
    if (this.#file !== undefined) return this.#file;
    mkdirSync(join(this.#gitDir, RUN_PACK_DIR), { recursive: true });
    const fd = openSync(this.#path, "wx+", 0o444);
    writeSync(fd, Buffer.alloc(12), 0, 12, 0);
    this.#file = { fd, ino: fstatSync(fd).ino };
    return this.#file;
  }

  #discardPending(): void {
    for (const entry of this.#pendingLocated) this.#ids.delete(entry.id.toString("hex"));
    this.#pendingLocated = [];
    this.#pending = [];
    this.#size = this.#written;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or unusable: nothing is left to free.
  }
}

function ftruncateQuietly(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // The size recorded stays `size`: the next write overwrites the rest, and the seal checksums only that far.
  }
}
