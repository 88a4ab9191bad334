import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import { checkRef, checkWorkspaceTarget, REF_HINTS } from "../refs.ts";
import type { SentinelConfig, SentinelEntry } from "../schema/index.ts";

/**
 * What a sentinel produces: the structured-output form (a schema for `object` and `array`, values for
 * `enum`, never both), `joinString` only for text, output paths that stay in the workspace, and the
 * file extensions structured output needs (`.jsonl`/`.ndjson` logs, a `.json` last value).
 */
export function checkSentinelOutputs(
  config: SentinelConfig,
  settings: SentinelEntry["settings"],
  at: JsonPath,
  place: { readonly hankDir: string; readonly base: string | undefined },
): ValidationIssue[] {
  return [...structuredIssues(config, at, place), ...pathIssues(config, settings, at)];
}

function structuredIssues(
  config: SentinelConfig,
  at: JsonPath,
  place: { readonly hankDir: string; readonly base: string | undefined },
): ValidationIssue[] {
  const structured = config.structuredOutput;
  const where = [...at, "structuredOutput"];
  const issues: ValidationIssue[] = [];
  if (structured === undefined) return issues;
  if (config.joinString !== undefined) {
    issues.push(
      error(
        "sentinel-join-string-structured",
        [...at, "joinString"],
        `Sentinel "${config.id}": joinString is only for text output, not structured output`,
        'Remove "joinString": structured outputs are written one JSON value per line.',
      ),
    );
  }
  const schemas = [structured.schemaStr, structured.schemaFile].filter((s) => s !== undefined).length;
  const formOk =
    structured.output === "enum"
      ? structured.enumValues !== undefined && schemas === 0
      : schemas === 1 && structured.enumValues === undefined;
  if (!formOk) {
    issues.push(
      error(
        "sentinel-structured-output-form",
        where,
        `Sentinel "${config.id}": structuredOutput "${structured.output}" needs ${structured.output === "enum" ? "enumValues and no schema" : "exactly one of schemaStr or schemaFile, and no enumValues"}`,
        'Give "object" and "array" one schema (schemaStr or schemaFile), and "enum" its enumValues.',
      ),
    );
  }
  if (structured.schemaFile !== undefined) {
    const options = place.base === undefined ? {} : { base: place.base };
    const checked = checkRef(place.hankDir, structured.schemaFile, "file", options);
    if (!checked.ok) {
      issues.push(
        error(
          `ref-${checked.rule}`,
          [...where, "schemaFile"],
          `Sentinel "${config.id}": schemaFile ${checked.message}`,
          REF_HINTS[checked.rule],
        ),
      );
    }
  }
  return issues;
}

/** Every output path the sentinel writes, with where it is written in the hank. */
function outputPaths(
  config: SentinelConfig,
  settings: SentinelEntry["settings"],
  at: JsonPath,
): { readonly path: string; readonly at: JsonPath; readonly kind: "log" | "last" }[] {
  const out: { path: string; at: JsonPath; kind: "log" | "last" }[] = [];
  const settingsAt = [...at.slice(0, -1), "settings", "outputPaths"];
  const logFile = settings?.outputPaths?.logFile;
  if (logFile !== undefined) out.push({ path: logFile, at: [...settingsAt, "logFile"], kind: "log" });
  else if (config.output?.file !== undefined)
    out.push({ path: config.output.file, at: [...at, "output", "file"], kind: "log" });
  const last = settings?.outputPaths?.lastValueFile;
  if (last !== undefined) out.push({ path: last, at: [...settingsAt, "lastValueFile"], kind: "last" });
  return out;
}

function pathIssues(
  config: SentinelConfig,
  settings: SentinelEntry["settings"],
  at: JsonPath,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // Structured outputs and the JSONL format write JSON lines; only structured last values are JSON.
  const jsonLog = config.structuredOutput !== undefined || config.output?.format === "jsonl";
  const jsonLast = config.structuredOutput !== undefined;
  for (const target of outputPaths(config, settings, at)) {
    const checked = checkWorkspaceTarget(target.path);
    if (!checked.ok) {
      issues.push(
        error(
          "sentinel-output-path",
          target.at,
          `Sentinel "${config.id}": ${checked.message}`,
          'A bare file name goes to .hankweave/sentinels/outputs/<id>/; a path with "/" is relative to agentRoot.',
        ),
      );
      continue;
    }
    const wanted = target.kind === "log" ? [".jsonl", ".ndjson"] : [".json"];
    const needsJson = target.kind === "log" ? jsonLog : jsonLast;
    if (needsJson && !wanted.some((ext) => target.path.endsWith(ext))) {
      issues.push(
        error(
          "sentinel-output-extension",
          target.at,
          `Sentinel "${config.id}": a JSON ${target.kind === "log" ? "log" : "last-value file"} must end in ${wanted.join(" or ")}, got "${target.path}"`,
          `Rename it, e.g. "${target.kind === "log" ? `${config.id}.jsonl` : `${config.id}-latest.json`}".`,
        ),
      );
    }
  }
  return issues;
}
