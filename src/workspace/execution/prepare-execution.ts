import { existsSync, renameSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { makeDirectory } from "../../util/make-directory.ts";
import { type ExecutionLayout, executionLayout } from "../execution-layout.ts";
import { inspectLock } from "../lock/runtime-lock.ts";
import type { ExecutionPlan } from "./choose-execution.ts";
import type { DataHash } from "./data-hash.ts";
import {
  buildExecutionMeta,
  type ExecutionHost,
  type ExecutionMeta,
  writeExecutionMeta,
} from "./execution-meta.ts";
import { stateBackupName } from "./execution-names.ts";
import { nestingProblem } from "./execution-nesting.ts";
import { errorCode } from "./fs-errors.ts";
import { existingLinkFits, type LinkResult, linkDataSource, type SymlinkFn } from "./link-data-source.ts";
import { canonicalPath } from "./survey-executions.ts";

export interface PrepareExecutionInput {
  readonly plan: ExecutionPlan;
  /** The data path as the user gave it (recorded in the meta). */
  readonly dataPath: string;
  readonly dataHash: DataHash;
  readonly hankPath: string;
  readonly hankHash: string;
  /** The hank's codon ids, recorded in the meta. */
  readonly codonIds?: readonly string[];
  /** `--copy`. */
  readonly copy: boolean;
  readonly now: number;
  readonly host: ExecutionHost;
  /** This process: names temp files and recognizes its own lock. */
  readonly pid: number;
  readonly hostname?: string;
  readonly isPidAlive?: (pid: number) => boolean;
  readonly symlink?: SymlinkFn;
}

export type PreparedExecution =
  | {
      readonly ok: true;
      readonly layout: ExecutionLayout;
      readonly meta: ExecutionMeta;
      /** Where `--force` moved the previous `.hankweave/`. */
      readonly backupDir?: string;
      /** Things the user should hear about (e.g. the data was copied because linking failed). */
      readonly notes: string[];
    }
  | { readonly ok: false; readonly message: string };

/**
 * Carries out an execution plan on disk: checks (nesting on resolved paths, a live lock), moves an old
 * `.hankweave/` aside and wipes `agentRoot/` when the plan says so, creates the layout, puts the data at
 * `agentRoot/read_only_data_source`, and writes `execution-meta.json` last, so a directory with a meta is
 * a complete execution. Nothing is touched when a check fails.
 */
export async function prepareExecution(input: PrepareExecutionInput): Promise<PreparedExecution> {
  const layout = executionLayout(input.plan.dir);
  const checked = checkBeforeTouching(input, layout);
  if (!checked.ok) return checked;
  const { plan } = input;
  const backupDir =
    plan.kind === "create" && plan.backupState ? backupStateDir(layout, input.now) : undefined;
  if (plan.kind === "create" && plan.wipeAgentRoot)
    await rm(layout.agentRoot, { recursive: true, force: true });
  createLayoutDirs(layout);
  const link = await placeData(input, layout, checked.data);
  if (!link.ok) return link;
  const meta = buildExecutionMeta({
    dataPath: input.dataPath,
    resolvedDataPath: checked.data.path,
    dataHash: input.dataHash.hash,
    dataHashMethod: input.dataHash.method,
    hankPath: input.hankPath,
    hankHash: input.hankHash,
    ...(input.codonIds !== undefined && { codonIds: input.codonIds }),
    linkType: link.linkType,
    host: input.host,
    now: new Date(input.now).toISOString(),
    ...(plan.kind === "resume" ? { previous: plan.meta } : {}),
  });
  writeExecutionMeta(layout.metaPath, meta, input.pid);
  const notes = link.note === undefined ? [] : [link.note];
  return backupDir === undefined
    ? { ok: true, layout, meta, notes }
    : { ok: true, layout, meta, backupDir, notes };
}

interface DataFacts {
  readonly path: string;
  readonly isDirectory: boolean;
}

type Checked =
  | { readonly ok: true; readonly data: DataFacts }
  | { readonly ok: false; readonly message: string };

function checkBeforeTouching(input: PrepareExecutionInput, layout: ExecutionLayout): Checked {
  const data = canonicalPath(input.dataPath);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(data).isDirectory();
  } catch (error) {
    return { ok: false, message: `Data source ${input.dataPath} cannot be read (${errorCode(error)}).` };
  }
  const nested = nestingProblem(canonicalPath(layout.executionDir), data);
  if (nested !== null) return { ok: false, message: nested };
  const lock = inspectLock(layout.lockPath, {
    now: input.now,
    pid: input.pid,
    ...(input.hostname === undefined ? {} : { hostname: input.hostname }),
    ...(input.isPidAlive === undefined ? {} : { isPidAlive: input.isPidAlive }),
  });
  if (lock.status === "live") return { ok: false, message: lock.message };
  return { ok: true, data: { path: data, isDirectory } };
}

/** Renames `.hankweave/` to a free `.hankweave.backup-<timestamp>[-n]`; undefined when there was none. */
function backupStateDir(layout: ExecutionLayout, now: number): string | undefined {
  if (!existsSync(layout.stateDir)) return undefined;
  for (let attempt = 1; ; attempt++) {
    const target = join(layout.executionDir, stateBackupName(now, attempt));
    if (existsSync(target)) continue;
    renameSync(layout.stateDir, target);
    return target;
  }
}

function createLayoutDirs(layout: ExecutionLayout): void {
  for (const dir of [
    layout.eventsDir,
    layout.runsDir,
    layout.logsDir,
    join(layout.stateDir, "checkpoints"),
    layout.agentRoot,
    layout.rigArchiveDir,
  ]) {
    makeDirectory(dir);
  }
}

async function placeData(
  input: PrepareExecutionInput,
  layout: ExecutionLayout,
  data: DataFacts,
): Promise<LinkResult> {
  const { plan } = input;
  if (plan.kind === "resume") {
    const kept = await existingLinkFits(layout.dataLink, {
      source: data.path,
      copy: input.copy,
      dataUnchanged: !plan.dataChanged,
      was: plan.meta.linkType,
    });
    if (kept !== null) return { ok: true, linkType: kept };
  }
  return linkDataSource(data.path, layout.dataLink, {
    copy: input.copy,
    isDirectory: data.isDirectory,
    ...(input.symlink === undefined ? {} : { symlink: input.symlink }),
  });
}
