import { readExecutionMeta } from "../../workspace/execution/index.ts";
import { type ExecutionLayout, executionLayout } from "../../workspace/execution-layout.ts";
import type { CliOptions } from "../cli-options.ts";

/**
 * `-e <execution>` names everything needed to continue it: the hank and the data it was created with
 * come from its `execution-meta.json` (absolute paths), so the command works from any directory, as
 * printed after a run. What the command line names itself (a hank argument or `--config`, `--data`)
 * wins. Without `-e`, or when the execution has no readable meta yet, the options are left as they are.
 */
export function optionsFromExecution(options: CliOptions): CliOptions {
  if (options.execution === undefined) return options;
  const read = readExecutionMeta(executionLayout(options.execution).metaPath);
  if (read.status !== "ok") return options;
  return withMeta(options, read.meta);
}

/**
 * The same for commands that need an existing execution (rollback): a missing or unreadable meta is a
 * refusal, naming the directory.
 */
export function requireExecutionOptions(options: CliOptions, layout: ExecutionLayout): CliOptions | string {
  const read = readExecutionMeta(layout.metaPath);
  if (read.status === "missing") {
    return `No hankweave execution at ${layout.executionDir} (no .hankweave/execution-meta.json).`;
  }
  if (read.status === "invalid")
    return `The execution at ${layout.executionDir} is unreadable: ${read.message}`;
  return withMeta(options, read.meta);
}

function withMeta(
  options: CliOptions,
  meta: { readonly hankPath: string; readonly resolvedSourceDataPath: string },
): CliOptions {
  return {
    ...options,
    ...(options.hankFrom === "default" && { hankPath: meta.hankPath, hankFrom: "argument" as const }),
    dataPath: options.dataPath ?? meta.resolvedSourceDataPath,
  };
}
