import type { Agent } from "./agent.ts";
import { runLoop } from "./loop.ts";
import { checkLoopOptions } from "./loop-options.ts";
import { WorkflowArgumentError } from "./workflow-argument-error.ts";
import type { WorkflowOptions, WorkflowResult } from "./workflow-types.ts";

/**
 * One agent, one input: the single step every workflow is made of. It runs exactly as a loop's step
 * does (one codon of a generated hank, on the same runtime, with the same options: `timeoutMs`,
 * `signal`, `budget`, `durable`...), and never throws on a model failure: `ok: false` and the error.
 * Throws `WorkflowArgumentError` only on invalid arguments.
 */
export async function run(
  agent: Agent,
  input: string,
  options: WorkflowOptions = {},
): Promise<WorkflowResult> {
  const where = "run()";
  try {
    const checked = checkLoopOptions({ ...options, steps: [agent], input, maxIterations: 1 }, where);
    const { iterations: _i, converged: _c, endCause: _e, ...result } = await runLoop(checked, where);
    return result;
  } catch (error) {
    throw error instanceof WorkflowArgumentError ? renamed(error) : error;
  }
}

/** Issues named as `run()`'s parameters: `agent.model`, `input`. */
function renamed(error: WorkflowArgumentError): WorkflowArgumentError {
  const issues = error.issues.map((issue) => ({
    ...issue,
    argument: issue.argument.replace(/^options\.steps\[0\]/, "agent").replace(/^options\.input$/, "input"),
  }));
  return new WorkflowArgumentError("run()", issues, error.code, error.file);
}
