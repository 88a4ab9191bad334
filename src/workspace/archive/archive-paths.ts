import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { checkWorkspaceGlob } from "../../hank/refs.ts";
import type { ExecutionLayout } from "../execution-layout.ts";
import {
  fsErrorText,
  placeEntry,
  realDirectoryProblem,
  scanWorkspace,
  unixSecondsOf,
  type WorkspaceMatch,
  type WorkspaceScan,
} from "../outputs/index.ts";
import { type ArchiveTarget, archiveDirOf } from "./archive-dir.ts";
import type { ArchiveEvent, FailedPath } from "./archive-events.ts";
import { type ArchiveManifestEntry, readArchiveManifest, writeArchiveManifest } from "./archive-manifest.ts";
import { entryDigest } from "./entry-digest.ts";
import { removeEmptyParents } from "./remove-empty-parents.ts";

export interface ArchivePathsInput {
  /** The runtime codon id (`edit#0`), or the loop id for a loop's own archive: events and manifest. */
  readonly codonId: string;
  readonly runId: string;
  readonly target: ArchiveTarget;
  /** `archiveOnSuccess`: workspace globs relative to agentRoot. */
  readonly globs: readonly string[];
  readonly layout: ExecutionLayout;
}

export interface ArchivePathsDeps {
  /** `archivedAt` and the timestamp of renamed names. */
  readonly clock: { now(): number };
  readonly emit: (event: ArchiveEvent) => void;
  /** Manifest entry ids; random UUIDs by default. */
  readonly newId?: () => string;
}

export interface ArchivePathsResult {
  readonly status: "completed" | "partial";
  /** Execution-relative: `rigArchive/revise-0/edit-0`. */
  readonly archiveDir: string;
  /** agentRoot-relative paths moved, in order. */
  readonly archivedPaths: readonly string[];
  readonly failedPaths: readonly FailedPath[];
  /** The manifest entries recorded for this call. */
  readonly entries: readonly ArchiveManifestEntry[];
  readonly unmatchedGlobs: readonly string[];
  /** The moves happened but could not be recorded (rollback cannot restore them), or null. */
  readonly manifestError: string | null;
}

/**
 * `archiveOnSuccess`: moves (not copies) what the globs match from agentRoot into the target's
 * archive directory (`archiveDirOf`), keeping agentRoot-relative paths; links move as links and are
 * never followed, and the data link, rigArchive and .hankweave are never touched. A taken name in the
 * archive gets `name_<n>_<unixSeconds>.ext`. Directories left empty in agentRoot are removed. Every
 * move is recorded in `.hankweave/archive-manifest.json` (one atomic write per call) so a rollback
 * can put it back. Emits `archive.completed`, or `archive.partial` when anything failed, plus `info`
 * narration. Never throws for what the disk or the globs did.
 */
export async function archivePaths(
  input: ArchivePathsInput,
  deps: ArchivePathsDeps,
): Promise<ArchivePathsResult> {
  const archiveDir = archiveDirOf(input.target);
  const { valid, failed } = splitGlobs(input.globs);
  const scan = await scanWorkspace(input.layout.agentRoot, valid);
  const blocked = scan.matches.length === 0 ? null : await preflight(input.layout, archiveDir);
  failed.push(...scan.unreadable.map(({ path, error }) => ({ path, error: `cannot be listed: ${error}` })));
  narrateScan(deps, scan);
  const moves = await moveAll({ input, deps, archiveDir, blocked }, scan.matches, failed);
  await removeEmptyParents(
    input.layout.agentRoot,
    moves.map((m) => m.from),
  );
  const manifestError = await record(input.layout.archiveManifestPath, moves, deps);
  const archivedPaths = moves.map((m) => m.from);
  announce(input, deps, archiveDir, archivedPaths, failed);
  return {
    status: failed.length === 0 ? "completed" : "partial",
    archiveDir,
    archivedPaths,
    failedPaths: failed,
    entries: moves,
    unmatchedGlobs: scan.unmatchedGlobs,
    manifestError,
  };
}

interface MoveContext {
  readonly input: ArchivePathsInput;
  readonly deps: ArchivePathsDeps;
  readonly archiveDir: string;
  /** Why nothing may be moved at all (unsafe archive directory, unreadable manifest), or null. */
  readonly blocked: string | null;
}

function splitGlobs(globs: readonly string[]): { valid: string[]; failed: FailedPath[] } {
  const valid: string[] = [];
  const failed: FailedPath[] = [];
  for (const glob of globs) {
    const check = checkWorkspaceGlob(glob);
    if (check.ok) valid.push(glob);
    else failed.push({ path: glob, error: check.message });
  }
  return { valid, failed };
}

/** The archive directory must be a chain of real directories, and the manifest must be readable. */
async function preflight(layout: ExecutionLayout, archiveDir: string): Promise<string | null> {
  const unsafe = await realDirectoryProblem(layout.executionDir, archiveDir, true);
  if (unsafe !== null) return `the archive directory ${archiveDir} is unusable: ${unsafe}`;
  const manifest = await readArchiveManifest(layout.archiveManifestPath);
  return manifest.ok ? null : manifest.error;
}

async function moveAll(
  context: MoveContext,
  matches: readonly WorkspaceMatch[],
  failed: FailedPath[],
): Promise<ArchiveManifestEntry[]> {
  const moves: ArchiveManifestEntry[] = [];
  for (const match of matches) {
    if (context.blocked !== null) {
      failed.push({ path: match.path, error: context.blocked });
      continue;
    }
    const moved = await moveOne(context, match);
    if ("error" in moved) failed.push(moved);
    else moves.push(moved);
  }
  return moves;
}

async function moveOne(
  context: MoveContext,
  match: WorkspaceMatch,
): Promise<ArchiveManifestEntry | FailedPath> {
  const { input, deps, archiveDir } = context;
  const source = join(input.layout.agentRoot, match.path);
  let digest: { sizeBytes: number; sha256: string };
  try {
    digest = await entryDigest(source, match.kind);
  } catch (error) {
    return { path: match.path, error: fsErrorText(error) };
  }
  const now = deps.clock.now();
  const placed = await placeEntry({
    source,
    kind: match.kind,
    destRoot: join(input.layout.executionDir, archiveDir),
    destPath: match.path,
    mode: "move",
    onConflict: "rename",
    unixSeconds: unixSecondsOf(now),
  });
  if (!placed.ok) return { path: match.path, error: placed.error };
  return {
    id: (deps.newId ?? randomUUID)(),
    codonId: input.codonId,
    runId: input.runId,
    archivedAt: new Date(now).toISOString(),
    from: match.path,
    to: `${archiveDir}/${placed.to}`,
    kind: match.kind,
    ...digest,
  };
}

/** Appends the moves to the manifest; re-read here so the write never drops entries made meanwhile. */
async function record(
  manifestPath: string,
  moves: readonly ArchiveManifestEntry[],
  deps: ArchivePathsDeps,
): Promise<string | null> {
  if (moves.length === 0) return null;
  const read = await readArchiveManifest(manifestPath);
  const error = read.ok
    ? await writeArchiveManifest(manifestPath, {
        ...read.manifest,
        entries: [...read.manifest.entries, ...moves],
      })
    : read.error;
  if (error !== null) {
    const count = moves.length === 1 ? "1 archived file" : `${moves.length} archived files`;
    info(deps, `Could not record ${count} in the archive manifest; rollback cannot restore them: ${error}`);
  }
  return error;
}

function narrateScan(deps: ArchivePathsDeps, scan: WorkspaceScan): void {
  for (const glob of scan.unmatchedGlobs)
    info(deps, `Archive pattern "${glob}" matched no files in agentRoot`);
  for (const { path, reason } of scan.skipped) info(deps, `Not archiving "${path}": it ${reason}`);
}

function announce(
  input: ArchivePathsInput,
  deps: ArchivePathsDeps,
  archiveDir: string,
  archivedPaths: readonly string[],
  failedPaths: readonly FailedPath[],
): void {
  const owner = input.target.kind === "loop" ? `loop '${input.codonId}'` : `codon '${input.codonId}'`;
  const files = archivedPaths.length === 1 ? "1 file" : `${archivedPaths.length} files`;
  const failures = failedPaths.length === 0 ? "" : ` (${failedPaths.length} failed)`;
  info(deps, `Archived ${files} for ${owner} to ${archiveDir}/${failures}`);
  const { codonId } = input;
  const paths = [...archivedPaths];
  if (failedPaths.length === 0)
    deps.emit({ type: "archive.completed", data: { codonId, archivedPaths: paths } });
  else
    deps.emit({
      type: "archive.partial",
      data: { codonId, archivedPaths: paths, failedPaths: [...failedPaths] },
    });
}

function info(deps: ArchivePathsDeps, message: string): void {
  deps.emit({ type: "info", data: { message } });
}
