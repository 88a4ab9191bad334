import { formatJsonPath, type ValidationIssue } from "../../hank/issues.ts";
import { type Palette, palette, type RenderOptions } from "./style.ts";
import { wrapText } from "./text.ts";

const MARK_INDENT = "  ";
const TEXT_INDENT = "    ";

/**
 * The issues, errors first, each with where it is, what is wrong and how to fix it. Empty string
 * when there are none.
 */
export function renderIssues(issues: readonly ValidationIssue[], options: RenderOptions): string {
  const paint = palette(options.color);
  const errors = issues.filter((issue) => issue.severity === "error");
  const warnings = issues.filter((issue) => issue.severity === "warning");
  const sections: string[] = [];
  if (errors.length > 0) sections.push(section("Errors", errors, paint.red("✗"), paint, options.width));
  if (warnings.length > 0)
    sections.push(section("Warnings", warnings, paint.yellow("!"), paint, options.width));
  return sections.join("\n\n");
}

function section(
  title: string,
  issues: readonly ValidationIssue[],
  mark: string,
  paint: Palette,
  width: number,
): string {
  const lines = [paint.bold(`${title} (${issues.length}):`)];
  for (const issue of issues) lines.push(...issueLines(issue, mark, paint, width));
  return lines.join("\n");
}

/** One issue: `✗ <where>: <message>` wrapped with a hanging indent, then `Fix: <hint>`. */
export function issueLines(issue: ValidationIssue, mark: string, paint: Palette, width: number): string[] {
  const textWidth = width - TEXT_INDENT.length;
  const [first = "", ...rest] = wrapText(`${issueLocation(issue)}: ${issue.message}`, textWidth);
  const lines = [`${MARK_INDENT}${mark} ${first}`, ...rest.map((line) => TEXT_INDENT + line)];
  if (issue.hint !== "") {
    lines.push(...wrapText(`Fix: ${issue.hint}`, textWidth).map((line) => TEXT_INDENT + paint.dim(line)));
  }
  return lines;
}

/** `hank[0].model`, or `prompts/a.md (hank[0].promptFile)` when the issue lies in another file. */
export function issueLocation(issue: ValidationIssue): string {
  const path = formatJsonPath(issue.path);
  if (issue.file === undefined) return path;
  return issue.path.length === 0 ? issue.file : `${issue.file} (${path})`;
}
