import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { error, type JsonPath, type ValidationIssue } from "../../hank/issues.ts";
import { isRecord } from "../../hank/validate/hank-view.ts";
import { FanOut, Gate, Hooks, LoopDefinitionSchema, Watch } from "./definition-schema.ts";
import type { LoopDefinition } from "./load-definition.ts";

/**
 * The files a loop definition names (body hank, data, programs, judge instructions), paths already
 * absolute. A definition that passed its schema gives them all; one that failed gives those of its
 * fields that pass on their own, so a missing file is reported with the schema errors.
 */
export type DefinitionFiles = Pick<LoopDefinition, "escalation" | "hooks" | "fan_out" | "watch"> & {
  readonly hank?: string | undefined;
  readonly data?: string | undefined;
  /** By index in the file; `undefined` for a gate that failed its schema. */
  readonly gates: readonly (LoopDefinition["gates"][number] | undefined)[];
};

/** The file problems of a definition that failed its schema, from each field that parses on its own. */
export function unparsedFileIssues(raw: unknown, dir: string): ValidationIssue[] {
  if (!isRecord(raw)) return [];
  const shape = LoopDefinitionSchema.shape;
  const part = <T>(schema: { safeParse: (v: unknown) => { success: boolean; data?: T } }, value: unknown) => {
    const parsed = value === undefined ? undefined : schema.safeParse(value);
    return parsed?.success === true ? parsed.data : undefined;
  };
  const program = (argv: readonly string[] | undefined) =>
    argv === undefined ? undefined : resolveProgram(argv, dir);
  const gates = (Array.isArray(raw.gates) ? raw.gates : []).flatMap(
    (gate: unknown): DefinitionFiles["gates"] => {
      const parsed = part(Gate, gate);
      if (parsed === undefined) return [undefined];
      if (parsed.kind === "command") return [{ ...parsed, run: resolveProgram(parsed.run, dir) }];
      if (parsed.kind === "judge") return [{ ...parsed, instructions: resolve(dir, parsed.instructions) }];
      return [parsed];
    },
  );
  const hank = part(shape.hank, raw.hank);
  const data = part(shape.data, raw.data);
  const hooks = part(Hooks, raw.hooks);
  const fanOut = part(FanOut, raw.fan_out);
  const watch = part(Watch, raw.watch);
  return fileIssues({
    hank: hank === undefined ? undefined : resolve(dir, hank),
    data: data === undefined ? undefined : resolve(dir, data),
    escalation: program(part(shape.escalation, raw.escalation)),
    hooks: hooks && {
      ...(hooks.generation_pre !== undefined && {
        generation_pre: resolveProgram(hooks.generation_pre, dir),
      }),
      ...(hooks.gate_pre !== undefined && { gate_pre: resolveProgram(hooks.gate_pre, dir) }),
    },
    fan_out: fanOut && { ...fanOut, items: resolveProgram(fanOut.items, dir) },
    watch: watch && { ...watch, source: resolveProgram(watch.source, dir) },
    gates,
  });
}

/** A program named with a path (`./x.sh`, `../y`, `/abs`) is found beside the definition; a bare name on PATH. */
export function resolveProgram(argv: readonly string[], dir: string): string[] {
  const [program, ...args] = argv;
  if (program === undefined) return [];
  const isPath = program.startsWith("./") || program.startsWith("../") || isAbsolute(program);
  return [isPath ? resolve(dir, program) : program, ...args];
}

/** Every named file that does not exist, each with its TOML path and the fix. */
export function fileIssues(d: DefinitionFiles): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const hankFile =
    d.hank === undefined || !existsSync(d.hank) || !statSync(d.hank).isDirectory()
      ? d.hank
      : join(d.hank, "hank.json");
  if (hankFile !== undefined && !existsSync(hankFile)) {
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
      argv: gate?.kind === "command" ? gate.run : undefined,
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
    if (gate?.kind === "judge" && !existsSync(gate.instructions)) {
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
