/** Child processes: one process group each, output as lines, abort and timeout stop the whole group. */
export { killGroup } from "./kill-group.ts";
export { createLineSplitter, type LineSplitter, MAX_LINE_CHARS } from "./line-splitter.ts";
export type { OutputStream } from "./output-sink.ts";
export type { ProcessClock } from "./process-clock.ts";
export {
  KILL_GRACE_MS,
  MAX_OUTPUT_BYTES,
  type ProcessEnd,
  type ProcessResult,
  type RunProcessOptions,
  runProcess,
} from "./run-process.ts";
export { runShellCommand, type ShellCommandContext } from "./run-shell-command.ts";
