import { formatJsonPath, type ValidationIssue } from "../hank/issues.ts";

/**
 * One validation issue as `--json` prints it (the `--validate` report and `loops lint` alike): code,
 * severity, the JSON path as written (`hank[1].codons[0].model`) and as an array, file, message, fix.
 */
export function issueJson(issue: ValidationIssue) {
  return {
    severity: issue.severity,
    code: issue.code,
    path: formatJsonPath(issue.path),
    pathParts: issue.path,
    ...(issue.file !== undefined && { file: issue.file }),
    message: issue.message,
    fix: issue.hint,
  };
}
