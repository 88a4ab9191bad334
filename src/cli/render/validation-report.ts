import type { ValidationIssue } from "../../hank/issues.ts";
import type { BudgetTableRow, ValidationReport } from "../../hank/validate/index.ts";
// Not from the folder's index, which would load every check (the sentinel checks' event catalogue too).
import { summarizeHank } from "../../hank/validate/summary.ts";
import { renderBudgetTable } from "./budget-table.ts";
import { renderEnvPassthrough } from "./env-passthrough.ts";
import { renderGoodToRun } from "./good-to-run.ts";
import { renderHankTitle } from "./hank-title.ts";
import { type RuntimeInfo, renderHeader } from "./header.ts";
import { renderIssues } from "./issues.ts";
import { renderPlanTree } from "./plan-tree.ts";
import { palette, type RenderOptions } from "./style.ts";
import { plural } from "./text.ts";

export interface ValidationView {
  readonly runtime: RuntimeInfo;
  /** The hank path as the user should read it (relative to the cwd when inside it). */
  readonly displayPath: string;
  /** The copy-pasteable command that runs this hank. */
  readonly runCommand: string;
  /** The same run with the scripted agent, when the hank's own models need a provider and its key. */
  readonly offlineCommand?: string;
  readonly report: ValidationReport;
  /** The validator's budget table; empty when the hank declares no budget. */
  readonly budgetTable: readonly BudgetTableRow[];
}

/**
 * The whole `--validate` report. A valid hank: header, verdict, the hank's box, the plan tree, the
 * budget table, the GOOD TO RUN box with the run command, the pass-through environment, warnings.
 * An invalid one: header, verdict, the tree when the schema accepted the hank, then every issue.
 */
export function renderValidationReport(view: ValidationView, options: RenderOptions): string {
  const paint = palette(options.color);
  const { report } = view;
  const status = `${paint.cyan(">")} Validating ${view.displayPath}\n${verdict(report, paint.green("✓"), paint.red("✗"))}`;
  const blocks = [renderHeader(view.runtime, options), status];
  if (report.hank !== undefined) {
    const counts = summarizeHank(report.hank, report.prompts);
    blocks.push(renderHankTitle(report.hank, counts, view.displayPath, options));
    blocks.push(renderPlanTree(report.hank, report, options));
    if (report.ok) {
      blocks.push(
        renderBudgetTable(view.budgetTable, options),
        renderGoodToRun(counts, view.runCommand, options, view.offlineCommand),
      );
      blocks.push(renderEnvPassthrough(report.envPassthrough, options));
    }
  }
  blocks.push(renderIssues(report.issues, options));
  return `${blocks.filter((block) => block !== "").join("\n\n")}\n`;
}

function verdict(report: ValidationReport, tick: string, cross: string): string {
  const errors = countSeverity(report.issues, "error");
  const warnings = countSeverity(report.issues, "warning");
  const warned = warnings > 0 ? ` (${plural(warnings, "warning")})` : "";
  if (report.ok) return `${tick} The hank is valid${warned}.`;
  return `${cross} The hank is not valid: ${plural(errors, "error")}${warnings > 0 ? `, ${plural(warnings, "warning")}` : ""}.`;
}

function countSeverity(issues: readonly ValidationIssue[], severity: ValidationIssue["severity"]): number {
  return issues.filter((issue) => issue.severity === severity).length;
}

/** The report for a hank that could not even be read: header, verdict and the one issue. */
export function renderLoadFailure(
  runtime: RuntimeInfo,
  displayPath: string,
  issue: ValidationIssue,
  options: RenderOptions,
): string {
  const paint = palette(options.color);
  const blocks = [
    renderHeader(runtime, options),
    `${paint.cyan(">")} Validating ${displayPath}\n${paint.red("✗")} The hank could not be loaded.`,
    renderIssues([issue], options),
  ];
  return `${blocks.join("\n\n")}\n`;
}
