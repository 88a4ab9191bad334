import path from "node:path";
import { DATA_SOURCE_DIR } from "./ref-workspace.ts";

/** Pure text transforms applied to every prompt: comment stripping, template variables, line counts. */

/**
 * Removes HTML comments (`<!-- ... -->`, across lines) and one newline right after each, so a comment
 * on its own line leaves no blank line behind. Comments do not nest: `<!-- a <!-- b --> c -->` ends
 * at the first `-->` and leaves ` c -->`. An unterminated `<!--` is left as it is.
 */
export function stripHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->(?:\r?\n)?/g, "");
}

/** The template variables hankweave substitutes in prompts, and what each resolves to. */
export const TEMPLATE_VARIABLES = ["AGENT_ROOT", "PROJECT_DIR", "EXECUTION_DIR", "DATA_DIR"] as const;

/**
 * Substitutes `<%AGENT_ROOT%>` (canonical), `<%PROJECT_DIR%>` and `<%EXECUTION_DIR%>` (aliases) with
 * agentRoot, and `<%DATA_DIR%>` with agentRoot's read-only data link. Other `<% %>` text is left as it
 * is. Replacement is literal: `$` in a path is not a replacement pattern.
 */
export function applyTemplateVariables(
  text: string,
  vars: { readonly agentRoot: string; readonly loop?: Readonly<Record<string, string>> },
): string {
  // Most prompts name no variable: every codon reads three prompt parts, and this runs for each.
  if (!text.includes("<%")) return text;
  const values: Readonly<Record<(typeof TEMPLATE_VARIABLES)[number], string>> = {
    AGENT_ROOT: vars.agentRoot,
    PROJECT_DIR: vars.agentRoot,
    EXECUTION_DIR: vars.agentRoot,
    DATA_DIR: path.join(vars.agentRoot, DATA_SOURCE_DIR),
  };
  let out = text;
  for (const name of TEMPLATE_VARIABLES) out = out.split(`<%${name}%>`).join(values[name]);
  for (const [name, value] of Object.entries(vars.loop ?? {})) out = out.split(`<%${name}%>`).join(value);
  return out;
}

const LOOP_ENV_PREFIX = "HANKWEAVE_LOOP_";

/**
 * The loop context a Loop driver gives its body (`HANKWEAVE_LOOP_GENERATION`, `_KEY`, `_INBOX`,
 * `_VERDICTS`, `_BLOCKERS`...) as template variables named without `HANKWEAVE_`: `<%LOOP_GENERATION%>`.
 * Outside a Loop there are none, and such text is left as it is.
 */
export function loopTemplateValues(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (key.startsWith(LOOP_ENV_PREFIX) && value !== undefined) out[key.slice("HANKWEAVE_".length)] = value;
  return out;
}

/** Lines of text as an editor shows them: "" has 0, "a" and "a\n" have 1, "a\nb" has 2. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
