import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { readTail } from "../journal/index.ts";
import { type ExecutionResult, startExecution } from "../runner/index.ts";
import { executionLayout } from "../workspace/execution-layout.ts";
import { sessionGroups } from "./loop-hank.ts";
import type { CheckedLoopOptions } from "./loop-options.ts";
import { finalLoopReport, type LoopRunEnding } from "./loop-outcome.ts";
import type { LoopTrace } from "./loop-trace.ts";
import { prepareLoop } from "./prepare-loop.ts";
import type { LoopRun } from "./run-transient.ts";
import { relayFor } from "./step-relay.ts";

/** Inside `durable.dir`: the generated hank and the step inputs, and the runner's execution. */
export const DURABLE_HANK_DIR = "loop";
export const DURABLE_EXECUTION_DIR = "run";

/**
 * The runner's data-changed refusal, told to a `loop()` caller: it has no `--force` or `--start-new`,
 * so it gets its own ways out.
 */
const LOOP_DATA_CHANGED =
  "options.cwd holds other data than when this durable loop started, and a durable loop continues only on the data it started with: put options.cwd back as it was, or pass another durable.dir to start the loop afresh.";

/** Events read back from the journal's end to find the loop's final report. */
const REPORT_TAIL_EVENTS = 200;

/**
 * A loop that survives its process: the hank and each step's input in `<dir>/loop/`, run by the runner
 * exactly as `hankweave -e <dir>/run` would run it (lock, journal, state snapshots, git checkpoints of
 * the whole workspace, crash recovery). Called again with the same `dir` and arguments it resumes: a
 * run the journal shows as still running is marked crashed and its step `interrupted`, steps already
 * completed are never sent again, and the interrupted step runs again on the input stored for it.
 */
export async function runDurable(
  options: CheckedLoopOptions,
  where: string,
  trace: LoopTrace | undefined,
): Promise<LoopRun> {
  const dir = options.durable?.dir;
  if (dir === undefined) throw new Error("runDurable: no durable directory");
  const hankDir = join(dir, DURABLE_HANK_DIR);
  const executionDir = join(dir, DURABLE_EXECUTION_DIR);
  const prepared = prepareLoop(options, hankDir, true, where);
  const { loop, files } = prepared;
  const relay = relayFor(options, prepared);
  const layout = executionLayout(executionDir);
  const handle = startExecution({
    hank: files.hankPath,
    data: options.cwd ?? emptyDataDir(hankDir),
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    env: options.env,
    execution: executionDir,
    headless: true,
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.clock !== undefined && { clock: options.clock }),
    stopRules: [relay.rule],
    ...(options.lifetime === "workflow" && { continueOwnSession: sessionGroups(loop.steps) }),
    ...(loop.codonTools !== undefined && { codonTools: loop.codonTools }),
    listeners: [relay.listener, ...(trace === undefined ? [] : [trace.listener])],
    ...(trace !== undefined && { tracing: trace.tracing }),
    heldPrompts: files.held,
    runtime: { version: "library", argv: ["loop()"] },
  });
  if (options.onEvent !== undefined) handle.events.subscribe(options.onEvent, { name: "onEvent" });
  const result = await handle.done;
  return { relay, loop, workspace: layout.agentRoot, journal: layout.eventsPath, ending: endingOf(result) };
}

/** The data source of a loop given no `cwd`: an empty directory, so the data hash never changes. */
function emptyDataDir(hankDir: string): string {
  const data = join(hankDir, "data");
  mkdirSync(data, { recursive: true });
  return data;
}

function endingOf(result: ExecutionResult): LoopRunEnding {
  switch (result.kind) {
    case "invalid": {
      const issues = result.report?.issues.map((issue) => issue.message) ?? [];
      const problem = result.loadIssue?.message ?? issues.join("; ");
      return { kind: "refused", message: `The loop's hank ${result.hankPath} is invalid: ${problem}` };
    }
    case "refused":
      // A data-changed refusal names the CLI's flags; a loop() caller has other ways out: say those.
      return {
        kind: "refused",
        message: result.code === "data-changed" ? LOOP_DATA_CHANGED : result.message,
      };
    case "nothing-to-do":
    case "ran": {
      const report = finalLoopReport(readTail(result.layout.eventsPath, REPORT_TAIL_EVENTS).events);
      return {
        kind: "ran",
        ...(result.kind === "ran" && { outcome: result.outcome }),
        message: result.message,
        state: result.state,
        ...(report !== undefined && { finalReport: report }),
      };
    }
  }
}
