import { existsSync } from "node:fs";
import { runBranch } from "../../events/checkpoints.ts";
import { type CheckpointListing, openExecutionDoor } from "../../runner/index.ts";
import type { CliIo } from "../cli-io.ts";
import type { CheckpointsOptions } from "./subcommand-command.ts";

/**
 * `hankweave checkpoints -e <execution>`: the checkpoints of every run, oldest run first, marking those
 * on the current line (the ones a rollback can go to). Reads only; takes no lock. `--json` prints one
 * `checkpoint.list` payload per line.
 */
export async function runCheckpointsCommand(options: CheckpointsOptions, io: CliIo): Promise<number> {
  const door = openExecutionDoor(options.execution);
  const { layout } = door;
  if (!existsSync(layout.metaPath)) {
    io.stderr.write(
      `✗ No hankweave execution at ${layout.executionDir} (no .hankweave/execution-meta.json).\n`,
    );
    return 1;
  }
  let listing: CheckpointListing;
  try {
    listing = await door.checkpointLists();
  } catch (caught) {
    io.stderr.write(
      `✗ The checkpoints could not be read: ${caught instanceof Error ? caught.message : String(caught)}\n`,
    );
    return 1;
  }
  if (options.json) {
    for (const list of listing.lists) io.stdout.write(`${JSON.stringify(list)}\n`);
    return 0;
  }
  io.stdout.write(renderCheckpointLists(listing.lists, listing.onLine));
  return 0;
}

/**
 * The readable listing: a heading per run, then one line per checkpoint (`*` when on the current line):
 *
 *   run 9f2c… (branch run/9f2c…, current)
 *   * 1a2b3c4  plan       rig-setup  2025-01-01T00:00:00.000Z
 */
export function renderCheckpointLists(
  lists: CheckpointListing["lists"],
  onLine: ReadonlySet<string>,
): string {
  if (lists.length === 0) return "No checkpoints yet.\n";
  const width = Math.max(...lists.flatMap((list) => list.checkpoints.map((c) => c.codonId.length)));
  const lines: string[] = [];
  for (const list of lists) {
    const current = list.currentBranch === runBranch(list.runId) ? ", current" : "";
    lines.push(`run ${list.runId} (branch run/${list.runId}${current})`);
    for (const c of list.checkpoints) {
      const mark = onLine.has(c.sha) ? "*" : " ";
      lines.push(
        `  ${mark} ${c.sha.slice(0, 7)}  ${c.codonId.padEnd(width)}  ${c.checkpointType.padEnd(9)}  ${c.timestamp}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
