import { isAbsolute, relative } from "node:path";
import type { AdmissionWarningCode, Condition } from "../../events/loop-words.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";

export {
  ADMISSION_WARNING_CODES,
  ADMIT_REFUSAL_CODES,
  type AdmissionWarningCode,
  type AdmitRefusalCode,
  CONDITIONS,
  type Condition,
} from "../../events/loop-words.ts";

/**
 * Admission: what earns a task the right to loop. Seven conditions, each answered from the definition
 * and the body or reported missing. A missing one refuses the start unless it is admitted anyway with
 * a recorded reason. Warnings name the ways a loop could edit its own brakes.
 */

export interface AdmissionRow {
  readonly condition: Condition;
  readonly met: boolean;
  /** How the definition answers it, or what is missing and how to add it. */
  readonly answer: string;
}

export interface AdmissionWarning {
  readonly code: AdmissionWarningCode;
  readonly message: string;
  /** For `brake-in-workspace`: a gate or a hook (the brakes whose reach refuses a start). */
  readonly refuses?: boolean;
}

export interface AdmissionReport {
  readonly rows: readonly AdmissionRow[];
  readonly warnings: readonly AdmissionWarning[];
  readonly admitted: boolean;
}

/** What admission needs to know about the body hank (read by the caller). */
export interface BodyFacts {
  /** Some codon checkpoints files (`checkpointedFiles`). */
  readonly checkpoints: boolean;
  /** Whether the body's agents can act: their harnesses (with their tools) load here. */
  readonly actability: { readonly met: boolean; readonly answer: string };
  /** What the body keeps besides its workspace and journal (`outputs`, `archives`). */
  readonly keeps: readonly string[];
  /** The body sets dollar budgets of its own (they bound a generation's codons). */
  readonly dollarBudgets: boolean;
}

export const FALLBACK_ADVICE =
  "A task that misses a condition is better served by a single run (`hankweave <hank>`), a workflow, or a human process.";

/** Pure: the seven rows and the warnings, from the definition, the body facts and the workspace. */
export function admissionReport(d: LoopDefinition, body: BodyFacts, workspace?: string): AdmissionReport {
  const rows: AdmissionRow[] = [
    recurrence(d),
    row(
      "verifiability",
      d.gates.length > 0,
      `${d.gates.length} gate(s): ${d.gates.map((g) => `${g.id} (${g.kind})`).join(", ")}`,
      "no gate: add a [[gates]] entry (command, judge or human)",
    ),
    { condition: "actability", ...body.actability },
    row(
      "recoverability",
      body.checkpoints,
      "the body checkpoints files (roll back, resume from a codon)",
      "no codon sets checkpointedFiles: add them so a generation can be rolled back",
    ),
    economics(d),
    governability(d),
    sedimentability(d, body),
  ];
  const warnings = [...brakeWarnings(d, workspace), ...gateWarnings(d)];
  if (body.dollarBudgets) {
    warnings.push({
      code: "body-dollar-budget",
      message:
        "The body hank sets dollar budgets: they bound each generation's codons; the Loop itself meters cost and never caps it.",
    });
  }
  return { rows, warnings, admitted: rows.every((r) => r.met) };
}

/**
 * What a failed run leaves besides a chat log: the checkpointed workspace, the gates' evidence, the
 * body's outputs and archives (the journal alone is not enough); `loops gc` keeps a failed run's
 * directory unless `--all`.
 */
function sedimentability(d: LoopDefinition, body: BodyFacts): AdmissionRow {
  const kept = [
    ...(body.checkpoints ? ["its checkpointed workspace"] : []),
    ...(d.gates.length > 0 ? [`the evidence of ${d.gates.length} gate(s)`] : []),
    ...body.keeps.map((k) => `the body's ${k}`),
  ];
  return row(
    "sedimentability",
    kept.length > 0,
    `a failed run leaves ${kept.join(", ")} and its journal, kept by \`hankweave loops gc\` unless --all`,
    "a failed run would leave only its journal (a chat log): checkpoint files (checkpointedFiles), add a gate, or keep outputs (outputFiles)",
  );
}

function row(condition: Condition, met: boolean, yes: string, no: string): AdmissionRow {
  return { condition, met, answer: met ? yes : no };
}

function recurrence(d: LoopDefinition): AdmissionRow {
  if (d.trigger?.schedule !== undefined)
    return row("recurrence", true, `schedule "${d.trigger.schedule}" (${d.trigger.timezone})`, "");
  if (d.watch !== undefined)
    return row("recurrence", true, `watches its source every ${d.watch.every_sec}s`, "");
  if (d.cadence !== undefined) return row("recurrence", true, `cadence: ${d.cadence}`, "");
  return row(
    "recurrence",
    false,
    "",
    'no trigger, no watch, no cadence: add [trigger] schedule, or cadence = "manual"',
  );
}

function economics(d: LoopDefinition): AdmissionRow {
  const cap = d.contract.iteration_cap;
  const budget = d.contract.budget;
  if (d.kind === "watch") {
    return row(
      "economics",
      true,
      `every ${d.watch?.every_sec ?? "?"}s, fan-out width ${d.fan_out?.width ?? "default"}`,
      "",
    );
  }
  const parts = [
    cap === undefined ? "iteration cap 50 (default)" : cap === 0 ? "" : `iteration cap ${cap}`,
    budget?.tokens ? `${budget.tokens} tokens` : "",
    budget?.wall_clock_sec ? `${budget.wall_clock_sec}s of running time` : "",
  ].filter((p) => p !== "");
  return row(
    "economics",
    parts.length > 0,
    parts.join(", "),
    "unbounded: set contract.iteration_cap or a budget",
  );
}

function governability(d: LoopDefinition): AdmissionRow {
  const missing = [
    d.owner === undefined ? "owner" : "",
    d.escalation === undefined ? "escalation" : "",
  ].filter((m) => m !== "");
  return row(
    "governability",
    missing.length === 0,
    `owner ${d.owner}; escalation ${d.escalation?.join(" ")}; stop and pause always work; the API needs a token`,
    `missing ${missing.join(" and ")}: add owner = "..." and escalation = ["./notify.sh"]`,
  );
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * A brake (gate, hook, body, escalation) the agent can reach: inside the data it reads or its
 * workspace. A gate or a hook there refuses the start (unless admitted anyway): the agent could loosen
 * the very check that verifies it.
 */
function brakeWarnings(d: LoopDefinition, workspace: string | undefined): AdmissionWarning[] {
  const roots = [d.data, workspace].filter((r): r is string => r !== undefined);
  const brakes: Array<[string, string | undefined, boolean]> = [
    ["the body hank", d.hank, false],
    ["the definition", d.file, false],
    ["escalation", d.escalation?.[0], false],
    ["hooks.generation_pre", d.hooks?.generation_pre?.[0], true],
    ["hooks.gate_pre", d.hooks?.gate_pre?.[0], true],
    ...d.gates.map((g): [string, string | undefined, boolean] => [
      `gate ${g.id}`,
      g.kind === "command" ? g.run[0] : g.kind === "judge" ? g.instructions : undefined,
      true,
    ]),
  ];
  const warnings: AdmissionWarning[] = [];
  for (const [what, path, refuses] of brakes) {
    if (path === undefined || !isAbsolute(path)) continue;
    const root = roots.find((r) => inside(path, r));
    if (root !== undefined) {
      warnings.push({
        code: "brake-in-workspace",
        refuses,
        message: `${what} (${path}) lies inside ${root}, which the agent works in: the loop could edit its own brakes. Keep it beside the definition.`,
      });
    }
  }
  return warnings;
}

/** A command gate run by name (`npm test`) reads the workspace's own files, which the agent can edit. */
function gateWarnings(d: LoopDefinition): AdmissionWarning[] {
  return d.gates.flatMap((g) => {
    if (g.kind !== "command") return [];
    const program = g.run[0];
    if (program === undefined || isAbsolute(program)) return [];
    return [
      {
        code: "gate-reads-workspace" as const,
        message: `gate ${g.id} runs "${g.run.join(" ")}" by name: it may read files the agent can edit (package.json, Makefile). Prefer a script beside the definition.`,
      },
    ];
  });
}
