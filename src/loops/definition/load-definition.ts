import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { error, type ValidationIssue } from "../../hank/issues.ts";
import { cron } from "./croner.ts";
import { fileIssues, resolveProgram, unparsedFileIssues } from "./definition-files.ts";

export { resolveProgram } from "./definition-files.ts";

import { translateDefinitionIssues } from "./definition-issues.ts";
import { LoopDefinitionSchema, type ParsedDefinition } from "./definition-schema.ts";

/**
 * A loaded definition: the parsed TOML with every path made absolute (relative paths are relative to
 * the definition's directory), and the file's own text, which admission hashes into the contract.
 */
export interface LoopDefinition extends ParsedDefinition {
  /** The absolute path of the `.loop.toml` file. */
  readonly file: string;
  /** Its directory: where relative paths and gate scripts live. */
  readonly dir: string;
  readonly text: string;
}

export type LoadedDefinition =
  | { readonly ok: true; readonly definition: LoopDefinition; readonly warnings: readonly ValidationIssue[] }
  | {
      readonly ok: false;
      readonly issues: readonly ValidationIssue[];
      /**
       * The definition, when it passed its schema and only later rules failed (a missing file, a bad
       * schedule): `loops lint` still shows its admission table in the same round. Never run it.
       */
      readonly definition?: LoopDefinition;
    };

/**
 * Reads, parses and validates a definition file; every problem is reported at once: the files it
 * names are checked even when the schema fails elsewhere.
 */
export function loadDefinition(path: string, cwd: string = process.cwd()): LoadedDefinition {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return fail(file, error("file-not-found", [], `Cannot read ${file}.`, "Check the definition's path."));
  }
  return parseDefinition(text, file);
}

/** Validates definition text as if it were at `file` (paths resolve against its directory). */
export function parseDefinition(text: string, file: string): LoadedDefinition {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (caught) {
    const where = caught instanceof TomlError ? ` at line ${caught.line}, column ${caught.column}` : "";
    const first = caught instanceof Error ? (caught.message.split("\n")[0] ?? "") : String(caught);
    return fail(
      file,
      error("toml-syntax", [], `${file} is not valid TOML${where}: ${first}`, "Fix the TOML syntax."),
    );
  }
  const parsed = LoopDefinitionSchema.safeParse(raw, { reportInput: true });
  const dir = dirname(file);
  if (!parsed.success) {
    const schemaIssues = translateDefinitionIssues(parsed.error.issues, LoopDefinitionSchema, raw, file);
    const files = unparsedFileIssues(raw, dir).map((issue) => ({ ...issue, file }));
    return { ok: false, issues: [...schemaIssues, ...files] };
  }
  const definition: LoopDefinition = { ...resolvePaths(parsed.data, dir), file, dir, text };
  const issues = checkDefinition(definition).map((issue) => ({ ...issue, file }));
  const errors = issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) return { ok: false, issues, definition };
  return { ok: true, definition, warnings: issues };
}

function fail(file: string, issue: ValidationIssue): LoadedDefinition {
  return { ok: false, issues: [{ ...issue, file }] };
}

function resolvePaths(data: ParsedDefinition, dir: string): ParsedDefinition {
  const program = (argv: readonly string[] | undefined) =>
    argv === undefined ? undefined : resolveProgram(argv, dir);
  return {
    ...data,
    hank: resolve(dir, data.hank),
    ...(data.data !== undefined && { data: resolve(dir, data.data) }),
    ...(data.escalation !== undefined && { escalation: resolveProgram(data.escalation, dir) }),
    gates: data.gates.map((gate) => {
      if (gate.kind === "command") return { ...gate, run: resolveProgram(gate.run, dir) };
      if (gate.kind === "judge") return { ...gate, instructions: resolve(dir, gate.instructions) };
      return gate;
    }),
    ...(data.hooks !== undefined && {
      hooks: {
        ...(data.hooks.generation_pre !== undefined && {
          generation_pre: program(data.hooks.generation_pre),
        }),
        ...(data.hooks.gate_pre !== undefined && { gate_pre: program(data.hooks.gate_pre) }),
      } as ParsedDefinition["hooks"],
    }),
    ...(data.fan_out !== undefined && {
      fan_out: { ...data.fan_out, items: resolveProgram(data.fan_out.items, dir) },
    }),
    ...(data.watch !== undefined && {
      watch: { ...data.watch, source: resolveProgram(data.watch.source, dir) },
    }),
  };
}

/** The rules a schema cannot say: kind and watch agree, ids are unique, files and schedules exist. */
function checkDefinition(definition: LoopDefinition): ValidationIssue[] {
  return [
    ...kindIssues(definition),
    ...gateIdIssues(definition),
    ...fileIssues(definition),
    ...triggerIssues(definition),
  ];
}

function kindIssues(d: LoopDefinition): ValidationIssue[] {
  if (d.kind === "watch" && d.watch === undefined) {
    return [
      error(
        "missing-watch",
        ["watch"],
        "A watch loop needs a [watch] table.",
        'Add [watch] with source and every_sec, or set kind = "delivery".',
      ),
    ];
  }
  if (d.kind === "delivery" && d.watch !== undefined) {
    return [
      error(
        "watch-on-delivery",
        ["watch"],
        "[watch] is only for watch loops.",
        'Set kind = "watch", or remove [watch].',
      ),
    ];
  }
  return [];
}

function gateIdIssues(d: LoopDefinition): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  d.gates.forEach((gate, index) => {
    // An approval resumes the gates of the run's one workspace; a fanned-out body has one per item.
    if (gate.kind === "human" && d.fan_out !== undefined) {
      issues.push(
        error(
          "human-gate-with-fan-out",
          ["gates", index, "kind"],
          "A human gate cannot follow a fanned-out body: there is no one workspace to approve.",
          "Remove [fan_out] (one body run over all items), or use a command or judge gate and put the human approval in the escalation command.",
        ),
      );
    }
    if (seen.has(gate.id)) {
      issues.push(
        error(
          "duplicate-gate-id",
          ["gates", index, "id"],
          `Gate id "${gate.id}" is used twice.`,
          "Give every gate its own id.",
        ),
      );
    }
    seen.add(gate.id);
  });
  return issues;
}

function triggerIssues(d: LoopDefinition): ValidationIssue[] {
  const trigger = d.trigger;
  if (trigger === undefined) return [];
  const issues: ValidationIssue[] = [];
  if (!isTimeZone(trigger.timezone)) {
    issues.push(
      error(
        "invalid-timezone",
        ["trigger", "timezone"],
        `Unknown time zone "${trigger.timezone}".`,
        'Use an IANA name such as "UTC" or "Europe/Paris".',
      ),
    );
  } else if (trigger.schedule !== undefined) {
    try {
      new (cron())(trigger.schedule, { timezone: trigger.timezone, paused: true });
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      issues.push(
        error(
          "invalid-schedule",
          ["trigger", "schedule"],
          `trigger.schedule is not a valid cron expression: ${message}`,
          'Use five fields, e.g. "0 3 * * *" for 03:00 every day.',
        ),
      );
    }
  }
  return issues;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
