import {
  type CheckedLoopOptions,
  checkLoopOptions,
  type LoopOptions,
  type LoopResult,
} from "./loop-options.ts";
import { loopOutcome } from "./loop-outcome.ts";
import { type LoopTrace, startLoopTrace } from "./loop-trace.ts";
import { runDurable } from "./run-durable.ts";
import { runTransient } from "./run-transient.ts";

/**
 * Runs the steps in a cycle until `until` is satisfied or `maxIterations` is reached, on hankweave's
 * runtime: each step is a codon of a generated hank, run by the same engine, harnesses and journal as
 * any hank (with `durable`, by the same runner as the CLI: checkpoints, lock, crash recovery).
 *
 * The output of each step is the next step's input, and the last step's output feeds the first step of
 * the next iteration: the coder receives the reviewer's remarks. `until` is asked about the last step
 * of each iteration, with its 1-based number.
 *
 * A failing step stops the loop and is returned as is (`ok: false`, the error, every step so far). The
 * loop never rejects on a model failure. One async contract: every argument error (a bad shape, an
 * unknown model, a harness that is missing) rejects the returned promise with `WorkflowArgumentError`,
 * before anything runs; `loop()` itself never throws synchronously.
 */
export async function loop(options: LoopOptions): Promise<LoopResult> {
  const where = "loop()";
  return runLoop(checkLoopOptions(options, where), where);
}

/**
 * A checked loop, run transient or durable, and its result read from the journal's view of the run;
 * traced (the loop's span, its steps, its run's tree) when tracing is on.
 */
export async function runLoop(checked: CheckedLoopOptions, where: string): Promise<LoopResult> {
  const trace = await startLoopTrace(checked);
  let result: LoopResult | undefined;
  try {
    result = await runTraced(checked, where, trace);
    return result;
  } finally {
    await trace?.end(result);
  }
}

async function runTraced(
  checked: CheckedLoopOptions,
  where: string,
  trace: LoopTrace | undefined,
): Promise<LoopResult> {
  const run =
    checked.durable === undefined
      ? await runTransient(checked, where, trace)
      : await runDurable(checked, where, trace);
  return loopOutcome({
    loop: run.loop,
    ending: run.ending,
    ...(checked.timeoutMs !== undefined && { timeoutMs: checked.timeoutMs }),
    hasUntil: checked.until !== undefined,
    untilError: () => run.relay.untilError,
    judgeLast: (result) => run.relay.judgeLast(result),
    workspace: run.workspace,
    ...(run.journal !== undefined && { journal: run.journal }),
  });
}
