import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadHankFile } from "../../hank/load.ts";
import type { Clock } from "../../util/clock.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";
import {
  type AdmissionReport,
  admissionReport,
  type BodyFacts,
  FALLBACK_ADVICE,
} from "../model/admission.ts";
import { ZERO_METERS } from "../model/budgets.ts";
import { pinContract } from "../model/contract.ts";
import { runKey, type TriggerKind } from "../model/idempotency.ts";
import { definitionLimits, type LimitConfig, type PartialLimits, resolveLimits } from "../model/limits.ts";
import type { LoopStore } from "../store/loop-store.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { pinFiles } from "./pin-files.ts";

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
    }
  | { readonly kind: "duplicate"; readonly run: LoopRunRecord }
  | { readonly kind: "refused"; readonly message: string; readonly report?: AdmissionReport };

/**
 * Admits a run: the admission table (refusing a missing condition unless admitted anyway), the limits
 * resolved and clamped, the steering files pinned into the run's directory, and the run stored with
 * its idempotency key (a second start with the same key returns the first run as a duplicate).
 */
export async function admitRun(request: AdmitRequest): Promise<AdmitOutcome> {
  const { definition: d, store, clock } = request;
  const now = new Date(clock.now()).toISOString();
  const key = request.idempotencyKey ?? runKey(d.id, request.trigger ?? "manual", request.occurrence ?? now);
  const existing = await store.findRunByKey(d.id, key);
  if (existing !== undefined) return { kind: "duplicate", run: existing };
  const report = admissionReport(d, bodyFacts(d.hank));
  if (!report.admitted && request.admitAnyway === undefined) {
    const missing = report.rows.filter((r) => !r.met).map((r) => `${r.condition}: ${r.answer}`);
    return {
      kind: "refused",
      report,
      message: `Loop ${d.id} is not admitted:\n  ${missing.join("\n  ")}\n${FALLBACK_ADVICE}\nTo start it anyway, give --admit-anyway "<reason>" (recorded with the run).`,
    };
  }
  const limits = resolveLimits(d.kind, definitionLimits(d), request.limitConfig, request.overrides);
  const id = request.newId();
  const dir = join(request.home, "runs", id);
  mkdirSync(dir, { recursive: true });
  const pinned = pinFiles(d, join(dir, "pinned"));
  const contract = pinContract({
    definition: d,
    limits,
    pinnedPath: pinned.pinnedPath,
    hashes: pinned.hashes,
    ...(request.admitAnyway !== undefined && { admittedAnyway: request.admitAnyway }),
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
    return result.kind === "duplicate" ? result : { kind: "refused", message: result.message, report };
  }
  return { kind: "admitted", run: result.run, report, clamped: contract.clamped };
}

/** What admission needs from the body, read from the hank as written. */
export function bodyFacts(hankPath: string): BodyFacts {
  const loaded = loadHankFile(hankPath, process.cwd());
  if (!loaded.ok) return { checkpoints: false, hasTools: false, dollarBudgets: false };
  const codons = codonsOf(loaded.raw);
  return {
    checkpoints: codons.some((c) => Array.isArray(c.checkpointedFiles) && c.checkpointedFiles.length > 0),
    // Every harness we run gives its agent tools; a body with no codon cannot act.
    hasTools: codons.length > 0,
    dollarBudgets: JSON.stringify(loaded.raw).includes('"maxDollars"'),
  };
}

function codonsOf(raw: unknown): Array<Record<string, unknown>> {
  const items = (raw as { hank?: unknown })?.hank;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: Record<string, unknown>) =>
    item?.type === "loop" && Array.isArray(item.codons)
      ? (item.codons as Array<Record<string, unknown>>)
      : [item],
  );
}
