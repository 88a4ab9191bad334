import { admissionReport, bodyFacts, EXIT_USAGE, loadDefinition } from "../../loops/index.ts";
import type { LoopsContext } from "./loops-context.ts";
import { lintJson, printJson } from "./loops-json.ts";
import { admissionText } from "./loops-render.ts";
import { printIssues } from "./loops-verbs.ts";

/**
 * `loops lint`: every problem in one round: schema errors with the missing files they name, and the
 * admission table whenever the definition passed its schema (a missing file does not hide it).
 */
export function lintVerb(context: LoopsContext, file: string): number {
  const loaded = loadDefinition(file, context.io.cwd);
  const issues = loaded.ok ? loaded.warnings : loaded.issues;
  const definition = loaded.definition;
  const report = definition === undefined ? undefined : admissionReport(definition, bodyFacts(definition));
  const code = loaded.ok && report?.admitted === true ? 0 : EXIT_USAGE;
  if (context.json) {
    printJson(context, lintJson(loaded.ok, issues, report));
    return code;
  }
  printIssues(context, issues);
  if (report === undefined) {
    context.print(
      "not admitted: the admission table needs a definition that passes its schema (errors above)",
    );
    return code;
  }
  context.print(admissionText(report).trimEnd());
  if (!loaded.ok) context.print("not valid: fix the errors above, then lint again");
  else
    context.print(
      report.admitted
        ? "admitted"
        : 'not admitted: a missing condition refuses the start (--admit-anyway "<reason>" to override)',
    );
  return code;
}
