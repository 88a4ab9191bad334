import { harnessProblem } from "../../harness/availability.ts";
import { loadHankFile } from "../../spec/load.ts";
import type { HankFile } from "../../spec/schema/index.ts";
import type { ValidationReport } from "../../spec/validate/index.ts";
import { budgetTable, validateHank } from "../../spec/validate/index.ts";
import type { CliOptions } from "../cli-options.ts";
import { displayPath } from "../display-path.ts";
import type { RuntimeInfo } from "../render/header.ts";
import type { RenderOptions } from "../render/style.ts";
import { renderLoadFailure, renderValidationReport } from "../render/validation-report.ts";

export type LoadedHank =
  | {
      readonly ok: true;
      readonly hank: HankFile;
      readonly hankPath: string;
      readonly hankDir: string;
      readonly text: string;
      readonly report: ValidationReport;
    }
  | { readonly ok: false; readonly output: string };

/**
 * Every run validates first (reference 1.9: "also run on every normal start"). An invalid hank prints the
 * same report as `--validate` and nothing is created.
 */
export function loadAndValidate(
  options: CliOptions,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  runtime: RuntimeInfo,
  render: RenderOptions,
): LoadedHank {
  const loaded = loadHankFile(options.hankPath, cwd);
  if (!loaded.ok) {
    return {
      ok: false,
      output: renderLoadFailure(runtime, displayPath(options.hankPath, cwd), loaded.issue, render),
    };
  }
  const report = validateHank(loaded.raw, {
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    env,
    harnessProblem,
    ...(options.model !== undefined && { modelOverride: options.model }),
  });
  if (!report.ok || report.hank === undefined) {
    const shown = displayPath(loaded.hankPath, cwd);
    const output = renderValidationReport(
      {
        runtime,
        displayPath: shown,
        runCommand: `hankweave --validate ${shown}`,
        report,
        budgetTable: report.hank === undefined ? [] : budgetTable(report.hank, report.models),
      },
      render,
    );
    return { ok: false, output };
  }
  return {
    ok: true,
    hank: report.hank,
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    text: loaded.text,
    report,
  };
}
