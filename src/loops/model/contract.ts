import type { GateDefinition, HashField, LoopKind } from "../definition/definition-schema.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";
import type { AdmissionWarning } from "./admission.ts";
import { gateClampWarnings, gateMaxRevisions, type LimitValues, type ResolvedLimits } from "./limits.ts";
import type { SandboxSetting } from "./sandbox-setting.ts";

/**
 * The contract a run is admitted under, pinned for its whole life: the resolved limits, the gates and
 * hooks as they were, and the content hashes of every file that steers the run (the definition, the
 * body, gate and hook scripts, judge instructions). The run executes its pinned copies, so an agent
 * editing the definition or a gate script mid-run, or an upgrade, changes nothing for it.
 */
export const CONTRACT_SCHEMA_VERSION = 2;

/** One pinned file (or the body hank's whole directory, `tree`) and the sha256 it had when pinned. */
export interface Pin {
  /** Its path relative to the definition's directory, as shown to an operator. */
  readonly label: string;
  /** The pinned copy's absolute path. */
  readonly path: string;
  readonly kind: "file" | "tree";
  readonly sha256: string;
}

export type PinnedGate = GateDefinition & { readonly maxRevisions: number };

export interface PinnedContract {
  /** 1: pinned before pins were verified (no `pins`, `pinnedDir`, `notices`). */
  readonly schemaVersion: 1 | typeof CONTRACT_SCHEMA_VERSION;
  readonly loopId: string;
  readonly name: string;
  readonly kind: LoopKind;
  readonly owner: string | null;
  readonly goal: string;
  readonly definitionOfDone: string | null;
  readonly limits: LimitValues;
  /** Messages for the limits a ceiling clamped at admission. */
  readonly clamped: readonly string[];
  readonly onExceeded: "halt" | "escalate";
  readonly hashFields: readonly HashField[];
  readonly onInterrupted: "resume" | "ask";
  /** Paths below point into the run's pinned copy. */
  readonly body: { readonly hank: string; readonly data: string | null; readonly model: string | null };
  readonly gates: readonly PinnedGate[];
  readonly hooks: {
    readonly generationPre: readonly string[] | null;
    readonly gatePre: readonly string[] | null;
  };
  /** `ceiling`: the most items a generation may fan out to (more: `exhausted: fan_out_ceiling`). */
  readonly fanOut: { readonly items: readonly string[]; readonly ceiling: number } | null;
  readonly watch: { readonly source: readonly string[]; readonly everySec: number } | null;
  readonly escalation: readonly string[] | null;
  /** sha256 of each pinned file, by its path relative to the definition's directory. */
  readonly hashes: Readonly<Record<string, string>>;
  /**
   * The pinned copies, verified before every poll, generation, gate and hook (absent from contracts
   * pinned before schema version 2, which are not verified).
   */
  readonly pins?: readonly Pin[];
  /** Where the copies are (outside the run's directory, read-only); removed with the run. */
  readonly pinnedDir?: string;
  /** What admission warned about (brakes the body could reach, a changed definition), shown with the run. */
  readonly notices?: readonly AdmissionWarning[];
  /** The reason given with `--admit-anyway`, when admission found a condition missing. */
  readonly admittedAnyway: string | null;
  /** Where the body, gates and hooks run (absent or null: with the driver's own rights). */
  readonly sandbox?: SandboxSetting | null;
}

export interface PinInput {
  readonly definition: LoopDefinition;
  readonly limits: ResolvedLimits;
  /** Maps an original absolute path to its pinned copy (identity when a file is not copied). */
  readonly pinnedPath: (path: string) => string;
  readonly pins: readonly Pin[];
  readonly pinnedDir: string;
  readonly notices: readonly AdmissionWarning[];
  readonly admittedAnyway?: string;
  readonly sandbox: SandboxSetting | null;
}

/** Pure: the contract of a run from its definition, resolved limits and pinned files. */
export function pinContract(input: PinInput): PinnedContract {
  const { definition: d, limits, pinnedPath } = input;
  const argv = (list: readonly string[] | undefined): readonly string[] | null =>
    list === undefined ? null : [pinnedPath(list[0] ?? ""), ...list.slice(1)];
  return {
    schemaVersion: CONTRACT_SCHEMA_VERSION,
    loopId: d.id,
    name: d.name,
    kind: d.kind,
    owner: d.owner ?? null,
    goal: d.contract.goal,
    definitionOfDone: d.contract.definition_of_done ?? null,
    limits: limits.values,
    clamped: [...limits.warnings.map((w) => w.message), ...gateClampWarnings(d.gates, limits)],
    onExceeded: d.contract.budget?.on_exceeded ?? "halt",
    hashFields: d.contract.no_progress?.hash_fields ?? ["workspace", "gates"],
    onInterrupted: d.on_interrupted,
    body: { hank: pinnedPath(d.hank), data: d.data ?? null, model: d.model ?? null },
    gates: d.gates.map((gate) => pinGate(gate, limits, pinnedPath)),
    hooks: { generationPre: argv(d.hooks?.generation_pre), gatePre: argv(d.hooks?.gate_pre) },
    fanOut:
      d.fan_out === undefined
        ? null
        : { items: argv(d.fan_out.items) ?? [], ceiling: limits.ceilings.fan_out_width ?? 0 },
    watch: d.watch === undefined ? null : { source: argv(d.watch.source) ?? [], everySec: d.watch.every_sec },
    escalation: argv(d.escalation),
    hashes: Object.fromEntries(input.pins.map((pin) => [pin.label, pin.sha256])),
    pins: input.pins,
    pinnedDir: input.pinnedDir,
    notices: input.notices,
    admittedAnyway: input.admittedAnyway ?? null,
    sandbox: input.sandbox,
  };
}

function pinGate(
  gate: GateDefinition,
  limits: ResolvedLimits,
  pinnedPath: (path: string) => string,
): PinnedGate {
  const maxRevisions = gateMaxRevisions(gate.max_revisions, limits);
  if (gate.kind === "command") {
    return { ...gate, run: [pinnedPath(gate.run[0] ?? ""), ...gate.run.slice(1)], maxRevisions };
  }
  if (gate.kind === "judge") return { ...gate, instructions: pinnedPath(gate.instructions), maxRevisions };
  return { ...gate, maxRevisions };
}
