import { lstatSync, readdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { openExecutionDoor } from "../../runner/index.ts";
import { executionBaseDir, listExecutions } from "../../workspace/execution/index.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import type { CliIo } from "../cli-io.ts";

/** `--cleanup [-e <execution>] [-y]`: which executions, and whether to remove or only list. */
export interface CleanupOptions {
  /** One execution; without it, every execution in the executions directory. */
  readonly execution?: string;
  /** Remove; without it the command only lists what it would remove (a dry run). */
  readonly yes: boolean;
}

/**
 * Removes executions (their whole directory: workspace, journal, checkpoints, logs, archives). A dry
 * run comes first: without `-y` nothing is touched and the listing says how to go on. Each removal
 * holds the execution's runtime lock, so a running execution is refused and none can start meanwhile.
 */
export function runCleanup(options: CleanupOptions, io: CliIo): number {
  const targets = targetsOf(options, io);
  if (typeof targets === "string") {
    io.stderr.write(`✗ ${targets}\n`);
    return 1;
  }
  if (targets.length === 0) {
    io.stdout.write("Nothing to clean up: no executions found.\n");
    return 0;
  }
  if (!options.yes) {
    io.stdout.write("Would remove (dry run; nothing was removed):\n");
    for (const dir of targets) io.stdout.write(`  ${dir}  ${formatBytes(sizeOf(dir))}\n`);
    io.stdout.write("Run again with -y to remove them.\n");
    return 0;
  }
  let failed = 0;
  for (const dir of targets) {
    const problem = removeExecution(dir);
    if (problem === undefined) io.stdout.write(`✓ Removed ${dir}\n`);
    else {
      failed += 1;
      io.stderr.write(`✗ Not removed: ${dir}: ${problem}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

function targetsOf(options: CleanupOptions, io: CliIo): readonly string[] | string {
  if (options.execution !== undefined) {
    const kind = kindOf(executionLayout(options.execution).stateDir);
    if (kind !== "directory") return `${options.execution} is not an execution (it has no .hankweave/).`;
    return [options.execution];
  }
  const base = executionBaseDir({ env: io.env, homeDir: io.env.HOME ?? homedir(), cwd: io.cwd });
  return listExecutions(base).executions.map((execution) => execution.dir);
}

/** Removes one execution under its lock; returns why it could not. */
function removeExecution(dir: string): string | undefined {
  const door = openExecutionDoor(dir);
  const { layout } = door;
  const emptied = door.withLock("cleanup", () => {
    try {
      // Everything but the lock first, so no other process can take the execution half-removed.
      for (const name of readdirSync(dir)) {
        if (name !== ".hankweave") rmSync(join(dir, name), { recursive: true, force: true });
      }
      for (const name of readdirSync(layout.stateDir)) {
        if (join(layout.stateDir, name) !== layout.lockPath) {
          rmSync(join(layout.stateDir, name), { recursive: true, force: true });
        }
      }
      return undefined;
    } catch (caught) {
      return caught instanceof Error ? caught.message : String(caught);
    }
  });
  if (!emptied.ok) return emptied.message;
  if (emptied.value !== undefined) return emptied.value;
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

function kindOf(path: string): "directory" | "other" | "missing" {
  try {
    return lstatSync(path).isDirectory() ? "directory" : "other";
  } catch {
    return "missing";
  }
}

/** Bytes under `path`, not following symbolic links (the data link counts as a link, not the data). */
function sizeOf(path: string): number {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
