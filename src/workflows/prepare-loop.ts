import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonPath } from "../hank/issues.ts";
import type { HankFileInput } from "../hank/schema/index.ts";
import type { ValidationReport } from "../hank/validate/index.ts";
import { validateHank } from "../hank/validate/index.ts";
import { harnessProblem, harnessPromptProblems } from "../harness/index.ts";
import { toolSettingProblems } from "./agent-tools.ts";
import { HANK_FILE, type LoopFiles, layOutLoopFiles } from "./loop-files.ts";
import { buildLoopHank, type LoopHank } from "./loop-hank.ts";
import type { CheckedLoopOptions } from "./loop-options.ts";
import { argumentName, WorkflowArgumentError } from "./workflow-argument-error.ts";

/** A loop ready to run: its hank, laid out in its directory and validated as any hank is. */
export interface PreparedLoop {
  readonly loop: LoopHank;
  readonly files: LoopFiles;
  readonly report: ValidationReport & { readonly hank: NonNullable<ValidationReport["hank"]> };
}

/**
 * Writes the loop's hank into `hankDir` and validates it with the hank validator (models resolved and
 * their harnesses available, budgets, ids). An error there comes from an argument (an unknown model id,
 * a harness that is not installed): it is thrown as `WorkflowArgumentError`, named as the caller wrote it.
 */
export function prepareLoop(
  options: CheckedLoopOptions,
  hankDir: string,
  durable: boolean,
  where: string,
): PreparedLoop {
  const loop = buildLoopHank(options, durable);
  if (durable) refuseAnotherLoop(hankDir, loop, where);
  const files = layOutLoopFiles(hankDir, loop, !durable);
  const report = validateHank(loop.hank, {
    hankPath: files.hankPath,
    hankDir,
    env: options.env,
    harnessProblem,
    promptProblems: harnessPromptProblems,
  });
  const errors = report.issues.filter((issue) => issue.severity === "error");
  if (!report.ok || report.hank === undefined || errors.length > 0) {
    const overridden = options.model !== undefined;
    throw new WorkflowArgumentError(
      where,
      errors.map((issue) => ({
        argument: argumentOf(issue.path, overridden),
        message: issue.message,
        fix: issue.hint,
      })),
    );
  }
  const toolProblems = toolSettingProblems(options, report.models);
  if (toolProblems.length > 0) throw new WorkflowArgumentError(where, toolProblems);
  return { loop, files, report: { ...report, hank: report.hank } };
}

/**
 * A durable directory belongs to the loop that started in it: continuing it with other arguments would
 * resume a journal and a workspace made by different steps, inputs or limits. Caught before anything is
 * written, naming what differs.
 */
function refuseAnotherLoop(hankDir: string, loop: LoopHank, where: string): void {
  const path = join(hankDir, HANK_FILE);
  if (!existsSync(path)) return;
  let before: unknown;
  try {
    before = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    before = undefined;
  }
  const differences = differencesOf(before, loop.hank);
  if (differences.length === 0) return;
  throw new WorkflowArgumentError(where, [
    {
      argument: "options.durable.dir",
      message: `${dirname(hankDir)} holds a loop started with other arguments (${differences.join(", ")} differ).`,
      fix: "Call loop() with the arguments that loop was started with to continue it, or choose another durable.dir.",
    },
  ]);
}

/** Which arguments two generated hanks disagree on, in the caller's words. */
function differencesOf(before: unknown, after: HankFileInput): string[] {
  const [was] = (before as HankFileInput | undefined)?.hank ?? [];
  const [now] = after.hank;
  if (was === undefined || now === undefined || was.type !== "loop" || now.type !== "loop")
    return ["the hank"];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const differences: string[] = [];
  if (!same(was.codons, now.codons)) differences.push("steps, model or timeoutMs");
  if (!same(was.terminateOn, now.terminateOn)) differences.push("maxIterations");
  if (!same(was.budget, now.budget)) differences.push("budget");
  const description = (hank: unknown) => (hank as HankFileInput | undefined)?.meta?.description;
  if (description(before) !== description(after))
    differences.push("input, lifetime, the token budget or tools");
  return differences;
}

/** Where a codon field comes from in the caller's arguments. */
const CODON_FIELD_ARGUMENT: Readonly<Record<string, string>> = {
  model: "model",
  name: "name",
  appendSystemPromptText: "instructions",
  description: "description",
  env: "env",
  shimIdleTimeout: "idleTimeoutSeconds",
  retryConfig: "retry",
  onFailure: "retry",
};

/** `hank[0].codons[1].model` of the generated hank is `options.steps[1].model` to the caller. */
export function argumentOf(path: JsonPath, modelOverridden = false): string {
  const [root, , container, index, field] = path;
  if (root !== "hank") return "options";
  if (container === "codons" && typeof index === "number") {
    if (field === "model" && modelOverridden) return "options.model";
    if (field === "budget") return "options.timeoutMs";
    const name = typeof field === "string" ? CODON_FIELD_ARGUMENT[field] : undefined;
    return argumentName(`options.steps[${index}]`, name === undefined ? [] : [name]);
  }
  if (container === "budget") return "options.budget";
  if (container === "terminateOn") return "options.maxIterations";
  return "options";
}
