import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../util/clock.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";
import {
  type AdmissionReport,
  type AdmissionWarning,
  type AdmitRefusalCode,
  admissionReport,
  FALLBACK_ADVICE,
} from "../model/admission.ts";
import { ZERO_METERS } from "../model/budgets.ts";
import { type Pin, pinContract } from "../model/contract.ts";
import { runKey, type TriggerKind } from "../model/idempotency.ts";
import {
  definitionLimits,
  type LimitConfig,
  looseningOverrides,
  type PartialLimits,
  resolveLimits,
} from "../model/limits.ts";
import { effectiveSandbox, type SandboxSetting } from "../model/sandbox-setting.ts";
import { bwrapProblem } from "../sandbox/bwrap.ts";
import type { LoopStore } from "../store/loop-store.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { bodyFacts } from "./body-facts.ts";
import { pinFiles, pinnedDirFor, removePinned } from "./pin-files.ts";

export interface AdmitRequest {
  readonly store: LoopStore;
  readonly definition: LoopDefinition;
  /** The loops home: each run gets `<home>/runs/<run id>/`. */
  readonly home: string;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly trigger?: TriggerKind;
  /** What identifies this start among the trigger's (a cron fire time). Default: the admission time. */
  readonly occurrence?: string;
  readonly idempotencyKey?: string;
  readonly overrides?: PartialLimits;
  readonly limitConfig?: LimitConfig;
  /** Admits a run whose admission table misses a condition; the reason is recorded with the run. */
  readonly admitAnyway?: string;
  /** Overrides the definition's `[trigger] concurrency` (a watch's next-tick run is always allowed). */
  readonly concurrency?: "forbid" | "allow" | "queue";
}

export type AdmitOutcome =
  | {
      readonly kind: "admitted";
      readonly run: LoopRunRecord;
      readonly report: AdmissionReport;
      readonly clamped: readonly string[];
      /** Brakes the body can reach, a changed definition: printed by `start` and `run`, kept with the run. */
      readonly notices: readonly AdmissionWarning[];
    }
  | { readonly kind: "duplicate"; readonly run: LoopRunRecord }
  | {
      readonly kind: "refused";
      readonly code: AdmitRefusalCode;
      readonly message: string;
      readonly report?: AdmissionReport;
    };

type Refusal = Extract<AdmitOutcome, { kind: "refused" }>;

/**
 * Admits a run: the admission table (refusing a missing condition, or a gate or hook the body could
 * edit, unless admitted anyway with a reason), the overrides (which may only tighten), the limits
 * resolved and clamped, the steering files pinned outside the run's directory, and the run stored
 * with its idempotency key (a second start with the same key returns the first run as a duplicate).
 */
export async function admitRun(request: AdmitRequest): Promise<AdmitOutcome> {
  const { definition: d, store, clock } = request;
  const now = new Date(clock.now()).toISOString();
  const key = request.idempotencyKey ?? runKey(d.id, request.trigger ?? "manual", request.occurrence ?? now);
  const existing = await store.findRunByKey(d.id, key);
  if (existing !== undefined) return { kind: "duplicate", run: existing };
  const report = admissionReport(d, bodyFacts(d), join(request.home, "runs"));
  const sandbox = effectiveSandbox(d.sandbox, request.limitConfig?.sandbox);
  const refusal = refusalOf(request, report, sandbox);
  if (refusal !== undefined) return refusal;
  const limits = resolveLimits(d.kind, definitionLimits(d), request.limitConfig, request.overrides);
  const id = request.newId();
  const dir = join(request.home, "runs", id);
  mkdirSync(dir, { recursive: true });
  const pinnedDir = pinnedDirFor(request.home, id);
  const pinned = pinFiles(d, pinnedDir);
  const previous = (await store.listRuns({ loopId: d.id, limit: 1 }))[0];
  const changed = previous === undefined ? [] : changedFiles(previous.contract.hashes, pinned.pins);
  const notices: AdmissionWarning[] = [
    // The brake warnings: a brake inside the body's reach, a gate that reads files the body can edit.
    ...report.warnings.filter((w) => w.code === "brake-in-workspace" || w.code === "gate-reads-workspace"),
    ...(previous !== undefined && changed.length > 0
      ? [
          {
            code: "definition-changed" as const,
            message: `Since run ${previous.id}, these pinned files changed: ${changed.join(", ")}. Check that the change was meant (a body can edit a file it can reach).`,
          },
        ]
      : []),
  ];
  const contract = pinContract({
    definition: d,
    limits,
    pinnedPath: pinned.pinnedPath,
    pins: pinned.pins,
    pinnedDir,
    notices,
    ...(request.admitAnyway !== undefined && { admittedAnyway: request.admitAnyway.trim() }),
    sandbox,
  });
  const result = await store.admitRun(
    {
      id,
      loopId: d.id,
      key,
      trigger: request.trigger ?? "manual",
      contract,
      meters: ZERO_METERS,
      amendments: [],
      dir,
      createdAt: now,
    },
    {
      concurrency: request.concurrency ?? d.trigger?.concurrency ?? "forbid",
      initial: d.kind === "watch" ? "watching" : "running",
    },
  );
  await store.registerLoop({ loopId: d.id, file: d.file, name: d.name, kind: d.kind, updatedAt: now });
  if (result.kind !== "admitted") {
    rmSync(dir, { recursive: true, force: true });
    removePinned(pinnedDir);
    return result.kind === "duplicate"
      ? result
      : { kind: "refused", code: "live-sibling", message: result.message, report };
  }
  return { kind: "admitted", run: result.run, report, clamped: contract.clamped, notices };
}

/** Why this start is refused, before anything is written; undefined when it may go on. */
function refusalOf(
  request: AdmitRequest,
  report: AdmissionReport,
  sandbox: SandboxSetting | null,
): Refusal | undefined {
  const d = request.definition;
  const anyway = request.admitAnyway;
  if (anyway !== undefined && anyway.trim() === "") {
    return {
      kind: "refused",
      code: "empty-admit-reason",
      report,
      message: `Loop ${d.id} (${d.file}): --admit-anyway needs a reason, recorded with the run: give --admit-anyway "<why this loop may run without the missing conditions>".`,
    };
  }
  const sandboxProblem = sandbox === null ? undefined : bwrapProblem();
  if (sandboxProblem !== undefined) {
    const from = d.sandbox !== undefined ? `${d.file}: sandbox.kind` : "the daemon's [loops.sandbox] kind";
    return {
      kind: "refused",
      code: "sandbox-unavailable",
      report,
      message: `Loop ${d.id}: ${from} = "bwrap", but ${sandboxProblem}.`,
    };
  }
  const loosened = looseningOverrides(d.kind, definitionLimits(d), request.limitConfig, request.overrides);
  if (loosened.length > 0) {
    return {
      kind: "refused",
      code: "loosened-limit",
      report,
      message: `Loop ${d.id} (${d.file}): ${loosened.map((l) => l.message).join(" ")}`,
    };
  }
  if (anyway !== undefined) return undefined;
  if (!report.admitted) {
    const missing = report.rows.filter((r) => !r.met).map((r) => `${r.condition}: ${r.answer}`);
    return {
      kind: "refused",
      code: "not-admitted",
      report,
      message: `Loop ${d.id} is not admitted:\n  ${missing.join("\n  ")}\n${FALLBACK_ADVICE}\nTo start it anyway, give --admit-anyway "<reason>" (recorded with the run).`,
    };
  }
  const brakes = report.warnings.filter((w) => w.code === "brake-in-workspace" && w.refuses === true);
  if (brakes.length > 0) {
    return {
      kind: "refused",
      code: "brake-in-workspace",
      report,
      message: `Loop ${d.id} (${d.file}) is not admitted: the body could edit its own brakes.\n  ${brakes.map((b) => b.message).join("\n  ")}\nMove them beside the definition, or give --admit-anyway "<reason>" (recorded with the run).`,
    };
  }
  return undefined;
}

/** The labels whose pinned hash differs from the previous run's (added and removed files included). */
function changedFiles(before: Readonly<Record<string, string>>, pins: readonly Pin[]): string[] {
  const now = new Map(pins.map((pin) => [pin.label, pin.sha256]));
  const labels = new Set([...Object.keys(before), ...now.keys()]);
  return [...labels].filter((label) => before[label] !== now.get(label)).sort();
}
