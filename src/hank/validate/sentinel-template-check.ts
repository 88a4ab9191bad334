import { Eta } from "eta";
import { error, type JsonPath, type ValidationIssue } from "../issues.ts";

/** The engine sentinels render with (see `src/sentinels/templates.ts`); here it only compiles. */
const eta = new Eta({ autoEscape: false, autoTrim: false, cache: false });

/**
 * A sentinel prompt is an Eta template: one that does not compile would fail its sentinel's load at
 * run time, so validation reports it first. Errors at render time depend on the events and are the
 * run's to report.
 */
export function templateIssues(text: string, at: JsonPath, id: string): ValidationIssue[] {
  try {
    eta.compile(text);
    return [];
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return [
      error(
        "sentinel-template-syntax",
        at,
        `Sentinel "${id}": the prompt is not a valid Eta template: ${reason.split("\n")[0] ?? reason}`,
        "Close every <% ... %> tag and write JavaScript inside it; use <%= ... %> to print a value.",
      ),
    ];
  }
}
