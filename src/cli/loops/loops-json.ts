import type { ValidationIssue } from "../../hank/issues.ts";
import type { AdmissionReport, LoopRunRecord } from "../../loops/index.ts";
import { issueJson } from "../issue-json.ts";
import type { LoopsContext } from "./loops-context.ts";

/**
 * What `hankweave loops --json <verb>` prints: one JSON object on stdout per verb, so a script reads
 * one value; messages and progress stay on stderr. A refusal prints nothing on stdout (its message is
 * on stderr, its exit code says it).
 */
export function printJson(context: LoopsContext, value: unknown): void {
  context.print(JSON.stringify(value, null, 2));
}

/** `lint --json`: valid, admitted, every issue, and the admission table when the schema passed. */
export function lintJson(
  valid: boolean,
  issues: readonly ValidationIssue[],
  report: AdmissionReport | undefined,
) {
  return {
    ok: valid && report?.admitted === true,
    valid,
    admitted: report?.admitted ?? false,
    issues: issues.map(issueJson),
    admission: report === undefined ? null : { rows: report.rows, warnings: report.warnings },
  };
}

/** `run`, `attach` and a driving command with `--json`: the run as it ended or parked, and the exit code. */
export function runEndJson(run: LoopRunRecord, exitCode: number) {
  return {
    run: run.id,
    loop: run.loopId,
    state: run.state,
    cause: run.cause,
    parkReason: run.parkReason,
    exitCode,
  };
}
