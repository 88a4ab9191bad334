import type { HankFile } from "../../hank/schema/index.ts";
import {
  type AbandonOutcome,
  type ExecutionDoor,
  openExecutionDoor,
  type RollbackSuccess,
  type RollbackTarget,
} from "../../runner/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";
import type { CliIo } from "../cli-io.ts";
import type { RenderOptions } from "../render/style.ts";
import { loadAndValidate } from "../run/load-and-validate.ts";
import { checkGit, type RunIo, runHankCommand } from "../run/run-command.ts";
import { shellCommand } from "../shell-quote.ts";
import { requireExecutionOptions } from "./options-from-execution.ts";
import { rollbackPrinter } from "./rollback-printer.ts";
import type { RollbackOptions } from "./subcommand-command.ts";

/**
 * `hankweave rollback <target> -e <execution>`: the composition root of a rollback. Opens the
 * execution (its meta names the hank and the data), validates the hank, and runs `rollbackExecution`
 * in a rollback session (the execution lock, refused while a run is live; a crashed run marked; the
 * git checkpointer, the archive and the journal behind the lock's fence). With `--restart`, the lock
 * is released and the run command continues the execution, which starts the continuation run the
 * rollback prepared.
 */
export async function runRollbackCommand(
  options: RollbackOptions,
  io: RunIo,
  render: RenderOptions,
): Promise<number> {
  const gitProblem = checkGit();
  if (gitProblem !== undefined) return fail(io, gitProblem);
  const door = openExecutionDoor(options.run.execution);
  const { layout } = door;
  const runOptions = requireExecutionOptions(options.run, layout);
  if (typeof runOptions === "string") return fail(io, runOptions);
  const loaded = loadAndValidate(runOptions, io.cwd, io.env, io.runtime, render);
  if (!loaded.ok) {
    io.stderr.write(loaded.output);
    return 1;
  }
  const code = await rollBackThrough(door, options, io, loaded.hank);
  if (code !== 0 || !options.restart) return code;
  return runHankCommand(runOptions, io, render);
}

async function rollBackThrough(
  door: ExecutionDoor,
  options: RollbackOptions,
  io: CliIo,
  hank: HankFile,
): Promise<number> {
  const { layout } = door;
  const listeners = [rollbackPrinter(io.stderr)];
  if (options.abandon === true) return abandon(io, layout, await door.abandonRollback({ hank, listeners }));
  const result = await door.rollback({
    hank,
    target: targetOf(options),
    autoRestart: options.restart,
    listeners,
  });
  if (!result.ok) {
    const hint =
      result.code === "unknown-target" || result.code === "off-line" || result.code === "bad-target"
        ? `\n  List the checkpoints with: hankweave checkpoints -e ${layout.executionDir}`
        : "";
    return fail(io, `${result.message}${hint}`);
  }
  io.stderr.write(summary(result, layout, options.restart));
  return 0;
}

/** What `--abandon` did, and how to go on. */
function abandon(io: CliIo, layout: ExecutionLayout, result: AbandonOutcome): number {
  if (!result.ok) return fail(io, result.message);
  const where =
    result.checkpoint === undefined
      ? `! ${result.warning ?? ""}`
      : `  The checkpointed files are back at checkpoint ${result.checkpoint.slice(0, 7)}.`;
  io.stderr.write(`${where}\n  Continue:  ${continueCommand(layout)}\n`);
  return 0;
}

/** `--type` makes the target a codon; otherwise the text is resolved as a name (prefix, codon, last-success). */
export function targetOf(options: Pick<RollbackOptions, "target" | "type">): RollbackTarget {
  if (options.type !== undefined) {
    return { kind: "codon", codonId: options.target, checkpointType: options.type };
  }
  return { kind: "named", name: options.target };
}

function summary(result: RollbackSuccess, layout: ExecutionLayout, restart: boolean): string {
  const list = (paths: readonly string[]): string => (paths.length === 0 ? "none" : paths.join(", "));
  const lines = [
    `  Restored from the checkpoint: ${list(result.restored)}`,
    `  Removed (created since): ${list(result.removed)}`,
  ];
  if (!restart) {
    const again =
      result.codonsToProcess.length === 0 ? "" : ` (runs ${result.codonsToProcess.join(", ")} again)`;
    lines.push(`  Continue:  ${continueCommand(layout)}${again}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The command that continues the execution, quoted for a POSIX shell. */
function continueCommand(layout: ExecutionLayout): string {
  return shellCommand(["hankweave", "--execution", layout.executionDir]);
}

function fail(io: CliIo, message: string): number {
  io.stderr.write(`✗ ${message}\n`);
  return 1;
}
