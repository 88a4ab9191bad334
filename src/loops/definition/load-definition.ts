import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { error, type JsonPath, type ValidationIssue } from "../../hank/issues.ts";
import { cron } from "./croner.ts";
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
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Reads, parses and validates a definition file; every problem is reported at once. */
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
  if (!parsed.success) {
    return {
      ok: false,
      issues: translateDefinitionIssues(parsed.error.issues, LoopDefinitionSchema, raw, file),
    };
  }
  const dir = dirname(file);
  const definition: LoopDefinition = { ...resolvePaths(parsed.data, dir), file, dir, text };
  const issues = checkDefinition(definition).map((issue) => ({ ...issue, file }));
  const errors = issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) return { ok: false, issues };
  return { ok: true, definition, warnings: issues };
}

function fail(file: string, issue: ValidationIssue): LoadedDefinition {
  return { ok: false, issues: [{ ...issue, file }] };
}

/** A program named with a path (`./x.sh`, `../y`, `/abs`) is found beside the definition; a bare name on PATH. */
export function resolveProgram(argv: readonly string[], dir: string): string[] {
  const [program, ...args] = argv;
  if (program === undefined) return [];
  const isPath = program.startsWith("./") || program.startsWith("../") || isAbsolute(program);
  return [isPath ? resolve(dir, program) : program, ...args];
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

function fileIssues(d: LoopDefinition): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const hankFile = existsSync(d.hank) && statSync(d.hank).isDirectory() ? join(d.hank, "hank.json") : d.hank;
  if (!existsSync(hankFile)) {
    issues.push(
      error(
        "hank-not-found",
        ["hank"],
        `The body hank ${hankFile} does not exist.`,
        "Point hank at a hank directory or a hank .json file.",
      ),
    );
  }
  if (d.data !== undefined && !existsSync(d.data)) {
    issues.push(
      error(
        "data-not-found",
        ["data"],
        `The data source ${d.data} does not exist.`,
        "Point data at an existing file or directory.",
      ),
    );
  }
  const programs: Array<{ path: JsonPath; argv: readonly string[] | undefined }> = [
    { path: ["escalation"], argv: d.escalation },
    { path: ["hooks", "generation_pre"], argv: d.hooks?.generation_pre },
    { path: ["hooks", "gate_pre"], argv: d.hooks?.gate_pre },
    { path: ["fan_out", "items"], argv: d.fan_out?.items },
    { path: ["watch", "source"], argv: d.watch?.source },
    ...d.gates.map((gate, i) => ({
      path: ["gates", i, "run"],
      argv: gate.kind === "command" ? gate.run : undefined,
    })),
  ];
  for (const { path, argv } of programs) {
    const program = argv?.[0];
    if (program !== undefined && isAbsolute(program) && !existsSync(program)) {
      issues.push(
        error(
          "program-not-found",
          [...path, 0],
          `${program} does not exist.`,
          "Put the script beside the definition and name it ./<file>.",
        ),
      );
    }
  }
  d.gates.forEach((gate, i) => {
    if (gate.kind === "judge" && !existsSync(gate.instructions)) {
      issues.push(
        error(
          "instructions-not-found",
          ["gates", i, "instructions"],
          `${gate.instructions} does not exist.`,
          "Write the judge's instructions in a file beside the definition.",
        ),
      );
    }
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
