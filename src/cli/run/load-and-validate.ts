import type { ValidationIssue } from "../../hank/issues.ts";
import type { ValidationReport } from "../../hank/validate/index.ts";
import { budgetTable } from "../../hank/validate/index.ts";
import { loadValidatedHank, type LoadedHank as RunnerLoadedHank } from "../../runner/index.ts";
import type { CliOptions } from "../cli-options.ts";
import { displayPath } from "../display-path.ts";
import type { RuntimeInfo } from "../render/header.ts";
import type { RenderOptions } from "../render/style.ts";
import { renderLoadFailure, renderValidationReport } from "../render/validation-report.ts";

/** The runner's loaded hank, or the rendered report of why it cannot run. */
export type LoadedHank =
  | Extract<RunnerLoadedHank, { readonly ok: true }>
  | { readonly ok: false; readonly output: string };

/** What the runner reports about a hank that cannot run: the file that failed and every issue. */
export interface InvalidHank {
  readonly hankPath: string;
  readonly loadIssue?: ValidationIssue;
  readonly report?: ValidationReport;
}

/**
 * Every run validates first (also on every normal start). An invalid hank prints the same report as
 * `--validate` and nothing is created.
 */
export function loadAndValidate(
  options: CliOptions,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  runtime: RuntimeInfo,
  render: RenderOptions,
): LoadedHank {
  const loaded = loadValidatedHank({
    hank: options.hankPath,
    cwd,
    env,
    ...(options.model !== undefined && { model: options.model }),
  });
  if (loaded.ok) return loaded;
  return { ok: false, output: renderInvalidHank(loaded, options.hankPath, cwd, runtime, render) };
}

/** The `--validate` report of a hank the runner refused as invalid. */
export function renderInvalidHank(
  invalid: InvalidHank,
  given: string,
  cwd: string,
  runtime: RuntimeInfo,
  render: RenderOptions,
): string {
  if (invalid.loadIssue !== undefined || invalid.report === undefined) {
    const issue = invalid.loadIssue ?? missingIssue(given);
    return renderLoadFailure(runtime, displayPath(given, cwd), issue, render);
  }
  const { report } = invalid;
  const shown = displayPath(invalid.hankPath, cwd);
  return renderValidationReport(
    {
      runtime,
      displayPath: shown,
      runCommand: `hankweave --validate ${shown}`,
      report,
      budgetTable: report.hank === undefined ? [] : budgetTable(report.hank, report.models),
    },
    render,
  );
}

function missingIssue(given: string): ValidationIssue {
  return {
    severity: "error",
    code: "hank-unreadable",
    path: [],
    message: `The hank ${given} could not be loaded`,
    hint: "Pass a hank .json file or a directory that contains hank.json.",
  };
}
