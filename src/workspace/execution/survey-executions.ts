import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isAtomicTempOf } from "../../util/atomic-write.ts";
import { type ExecutionLayout, executionLayout, STATE_DIR_NAME } from "../execution-layout.ts";
import type { ExistingExecution, TargetFacts } from "./choose-execution.ts";
import { readExecutionMeta } from "./execution-meta.ts";
import { errorCode, isNotFound } from "./fs-errors.ts";

export interface ExecutionSurvey {
  readonly executions: ExistingExecution[];
  /** Subdirectories with a `.hankweave/` whose meta could not be used, as "dir: why". */
  readonly skipped: string[];
}

/**
 * The executions directly inside `baseDir`: every subdirectory whose `.hankweave/execution-meta.json`
 * reads. A missing base directory holds none. Directories without state are not executions and are not
 * reported; ones with unusable state are reported in `skipped` so a caller can mention them.
 */
export function listExecutions(baseDir: string): ExecutionSurvey {
  let names: string[];
  try {
    names = readdirSync(baseDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch (error) {
    if (isNotFound(error)) return { executions: [], skipped: [] };
    return { executions: [], skipped: [`${baseDir}: ${errorCode(error)}`] };
  }
  const executions: ExistingExecution[] = [];
  const skipped: string[] = [];
  for (const name of names.sort()) {
    const dir = join(baseDir, name);
    const layout = executionLayout(dir);
    const read = readExecutionMeta(layout.metaPath);
    if (read.status === "ok") executions.push({ dir, meta: read.meta });
    else if (read.status === "invalid") skipped.push(`${dir}: ${read.message}`);
    else if (existsSync(layout.stateDir)) skipped.push(`${dir}: execution-meta.json is missing`);
  }
  return { executions, skipped };
}

export type TargetInspection =
  | { readonly ok: true; readonly facts: TargetFacts }
  | { readonly ok: false; readonly message: string };

/** What is at the `-e` path, for `chooseExecution`; a path that cannot be inspected is a failure value. */
export function inspectExecutionTarget(path: string, baseDir: string): TargetInspection {
  const dir = resolve(path);
  try {
    return { ok: true, facts: targetFacts(dir, baseDir) };
  } catch (error) {
    return { ok: false, message: `Cannot use -e ${dir}: ${errorCode(error)}.` };
  }
}

function targetFacts(dir: string, baseDir: string): TargetFacts {
  const isBaseDir = canonicalPath(dir) === canonicalPath(baseDir);
  const kind = kindOf(dir);
  if (kind !== "directory") {
    return { path: dir, kind, isBaseDir, entryCount: 0, hasStateDir: false, meta: { status: "missing" } };
  }
  const entryCount = readdirSync(dir).length;
  const hasStateDir = existsSync(join(dir, STATE_DIR_NAME));
  const layout = executionLayout(dir);
  const meta = readExecutionMeta(layout.metaPath);
  const facts = { path: dir, kind, isBaseDir, entryCount, hasStateDir, meta };
  if (!hasStateDir || meta.status !== "missing") return facts;
  return { ...facts, stateRecordsNothing: recordsNothing(layout) };
}

/**
 * Whether `.hankweave/` holds only what a start leaves before it records anything: directories, and
 * beside the meta the temporary file of a meta write that was cut. An unreadable tree counts as holding.
 */
function recordsNothing({ stateDir, metaPath }: ExecutionLayout): boolean {
  try {
    return readdirSync(stateDir, { recursive: true, withFileTypes: true }).every(
      (entry) =>
        entry.isDirectory() ||
        (entry.parentPath === dirname(metaPath) && entry.isFile() && isAtomicTempOf(metaPath, entry.name)),
    );
  } catch {
    return false;
  }
}

/**
 * The absolute path with every link resolved, for paths that may not exist yet: the deepest existing
 * ancestor is resolved and the rest appended.
 */
export function canonicalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    return join(canonicalPath(parent), basename(absolute));
  }
}

function kindOf(path: string): TargetFacts["kind"] {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch (error) {
    if (isNotFound(error)) return "absent";
    throw error;
  }
}
