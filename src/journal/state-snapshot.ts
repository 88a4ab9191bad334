import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { IsoTimestamp } from "../events/payloads-common.ts";
import { syncDirectory } from "../util/sync-directory.ts";
import { type RunState, RunStateSchema } from "./run-state.ts";

/**
 * `state.json`: a snapshot of the run state for a fast start. It is never the truth (the journal is):
 * `runState.lastSeq` records the journal position it includes, and `loadRunState` checks it against the
 * journal. Written atomically: a temp file in the same directory, fsynced, then the previous `state.json`
 * becomes `state.json.bak` and the temp file is renamed into place. Readers fall back to `.bak`.
 */

export const SNAPSHOT_FILE = "state.json";
export const SNAPSHOT_BACKUP_FILE = "state.json.bak";
export const SNAPSHOT_TEMP_FILE = "state.json.tmp";
export const SNAPSHOT_VERSION = 1;

export const StateSnapshotSchema = z.strictObject({
  v: z.literal(SNAPSHOT_VERSION),
  savedAt: IsoTimestamp,
  runState: RunStateSchema,
  /** The engine's plan, stored as is; its owner parses it (`parseExecutionPlan`). */
  executionPlan: z.unknown().optional(),
  /** Sha of the checkpoint the first run started from. */
  initialCheckpoint: z.string().nullable().optional(),
});
export type StateSnapshot = z.infer<typeof StateSnapshotSchema>;

export interface SnapshotContent {
  readonly runState: RunState;
  readonly executionPlan?: unknown;
  readonly initialCheckpoint?: string | null;
}

export type SnapshotRead =
  | {
      readonly found: true;
      readonly snapshot: StateSnapshot;
      readonly file: typeof SNAPSHOT_FILE | typeof SNAPSHOT_BACKUP_FILE;
      /** Why `state.json` was not used when the backup was. */
      readonly problems: string[];
    }
  | { readonly found: false; readonly problems: string[] };

/** Writes `state.json` in `dir` atomically and returns what was written. */
export function writeSnapshot(
  dir: string,
  content: SnapshotContent,
  now: () => Date = () => new Date(),
): StateSnapshot {
  const snapshot: StateSnapshot = { v: SNAPSHOT_VERSION, savedAt: now().toISOString(), ...content };
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, SNAPSHOT_TEMP_FILE);
  const target = join(dir, SNAPSHOT_FILE);
  try {
    writeDurably(temp, `${JSON.stringify(snapshot)}\n`);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  keepAsBackup(target, join(dir, SNAPSHOT_BACKUP_FILE));
  renameSync(temp, target);
  syncDirectory(dir);
  return snapshot;
}

/**
 * The previous `state.json` becomes the backup. A directory in its place (something else made it) is
 * an EISDIR fault naming `state.json`: renaming it over the backup file would fail as ENOTDIR, naming
 * the backup, which is not what is wrong.
 */
function keepAsBackup(target: string, backup: string): void {
  const found = lstatSync(target, { throwIfNoEntry: false });
  if (found === undefined) return;
  if (found.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, rename '${target}'`), {
      code: "EISDIR",
      syscall: "rename",
      path: target,
    });
  }
  renameSync(target, backup);
}

/** Reads `state.json`, falling back to `state.json.bak` when it is missing, unreadable or invalid. */
export function readSnapshot(dir: string): SnapshotRead {
  const problems: string[] = [];
  for (const file of [SNAPSHOT_FILE, SNAPSHOT_BACKUP_FILE] as const) {
    const read = readOne(join(dir, file));
    if (read.ok) return { found: true, snapshot: read.snapshot, file, problems };
    if (read.problem !== null) problems.push(`${file}: ${read.problem}`);
  }
  return { found: false, problems };
}

type OneRead = { ok: true; snapshot: StateSnapshot } | { ok: false; problem: string | null };

function readOne(path: string): OneRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = error instanceof Error && "code" in error && error.code === "ENOENT";
    return { ok: false, problem: missing ? null : String(error) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "not valid JSON" };
  }
  const parsed = StateSnapshotSchema.safeParse(value);
  if (parsed.success) return { ok: true, snapshot: parsed.data };
  const first = parsed.error.issues[0];
  return {
    ok: false,
    problem: `not a snapshot (${first ? `${first.path.join(".")}: ${first.message}` : "invalid"})`,
  };
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, "w");
  try {
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
