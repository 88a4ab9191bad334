import { isAbsolute } from "node:path";
import type { ValidationIssue } from "../hank/issues.ts";
import { loadHankFile } from "../hank/load.ts";
import { budgetTable } from "../hank/validate/budget-table.ts";
import { mayDeclareSentinels, NO_SENTINELS, validateHankWith } from "../hank/validate/validate-hank-with.ts";
import type {
  SentinelStage,
  ValidationContext,
  ValidationReport,
} from "../hank/validate/validation-types.ts";
import { harnessProblem, harnessPromptProblems } from "../harness/availability.ts";
import type { CliOptions } from "./cli-options.ts";
import { displayPath } from "./display-path.ts";
import { issueJson } from "./issue-json.ts";
import type { RuntimeInfo } from "./render/header.ts";
import type { RenderOptions } from "./render/style.ts";
import { renderLoadFailure, renderValidationReport } from "./render/validation-report.ts";
import { shellCommand } from "./shell-quote.ts";

export interface ValidateEnvironment {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly runtime: RuntimeInfo;
  readonly render: RenderOptions;
}

export interface CommandOutcome {
  readonly exitCode: number;
  readonly stdout: string;
}

/**
 * `--validate`: load, validate and report. Reads the hank and its referenced files; writes nothing,
 * creates no directory. Exit code 0 when the hank is valid (warnings allowed), 1 otherwise.
 */
export async function runValidate(
  options: CliOptions,
  environment: ValidateEnvironment,
): Promise<CommandOutcome> {
  const loaded = loadHankFile(options.hankPath, environment.cwd);
  if (!loaded.ok) {
    const shown = displayPath(options.hankPath, environment.cwd);
    const issue = withDisplayFile(loaded.issue, environment.cwd);
    if (options.json) return { exitCode: 1, stdout: validationJson(shown, false, [issue]) };
    const stdout = renderLoadFailure(environment.runtime, shown, issue, environment.render);
    return { exitCode: 1, stdout };
  }
  const context = validationContext(loaded, options, environment);
  const report = validateHankWith(loaded.raw, context, await sentinelStage(loaded.raw));
  const shownPath = displayPath(loaded.hankPath, environment.cwd);
  if (options.json) {
    const issues = report.issues.map((issue) => withDisplayFile(issue, environment.cwd));
    return { exitCode: report.ok ? 0 : 1, stdout: validationJson(shownPath, report.ok, issues) };
  }
  const stdout = renderValidationReport(
    {
      runtime: environment.runtime,
      displayPath: shownPath,
      runCommand: runCommand(shownPath, options, environment.cwd),
      ...(needsProvider(report.models, options) && {
        offlineCommand: runCommand(shownPath, { ...options, model: "scripted" }, environment.cwd, true),
      }),
      report: { ...report, issues: report.issues.map((issue) => withDisplayFile(issue, environment.cwd)) },
      budgetTable: report.hank === undefined ? [] : budgetTable(report.hank, report.models),
    },
    environment.render,
  );
  return { exitCode: report.ok ? 0 : 1, stdout };
}

function validationContext(
  loaded: { readonly hankPath: string; readonly hankDir: string },
  options: CliOptions,
  environment: ValidateEnvironment,
): ValidationContext {
  return {
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    env: environment.env,
    harnessProblem,
    promptProblems: harnessPromptProblems,
    ...(options.model === undefined ? {} : { modelOverride: options.model }),
    ...(options.dataPath !== undefined && {
      dataPath: options.dataPath,
      dataShown: displayPath(options.dataPath, environment.cwd),
    }),
  };
}

/**
 * The sentinel checks, imported only for a hank that may declare sentinels: they read the event
 * catalogue, whose schemas would otherwise cost every `--validate` several milliseconds to build.
 */
async function sentinelStage(raw: unknown): Promise<SentinelStage> {
  if (!mayDeclareSentinels(raw)) return NO_SENTINELS;
  return (await import("../hank/validate/sentinel-checks.ts")).SENTINEL_STAGE;
}

/**
 * `--validate --json`: one object, `{ ok, hank, errors, warnings, issues }`, each issue with its code,
 * severity, JSON path (as written in the hank, `hank[1].codons[0].model`, and as an array), file,
 * message and fix.
 */
function validationJson(hank: string, ok: boolean, issues: readonly ValidationIssue[]): string {
  const count = (severity: string) => issues.filter((issue) => issue.severity === severity).length;
  const listed = issues.map(issueJson);
  const summary = { ok, hank, errors: count("error"), warnings: count("warning"), issues: listed };
  return `${JSON.stringify(summary)}\n`;
}

/** Issues name their file relative to the cwd, like every other path in the report. */
function withDisplayFile(issue: ValidationIssue, cwd: string): ValidationIssue {
  if (issue.file === undefined || !isAbsolute(issue.file)) return issue;
  return { ...issue, file: displayPath(issue.file, cwd) };
}

/** The command that runs what was just validated, with the same data and model. */
function runCommand(hankPath: string, options: CliOptions, cwd: string, headless = false): string {
  const words = ["hankweave", hankPath];
  if (options.dataPath !== undefined) words.push(displayPath(options.dataPath, cwd));
  if (options.model !== undefined) words.push("-m", options.model);
  if (headless) words.push("--headless");
  return shellCommand(words);
}

/** True when some model of the run is not the scripted agent: running it needs a provider's key. */
function needsProvider(models: ValidationReport["models"], options: CliOptions): boolean {
  if (options.model !== undefined) return false;
  return [...models.values()].some((model) => model.harness !== "scripted");
}
