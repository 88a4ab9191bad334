import type { Outcome } from "../../events/loop-run-states.ts";
import type { PinnedContract } from "../model/contract.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { type DriverDeps, endRun } from "./driver-context.ts";
import { type Tamper, verifyPins } from "./pin-files.ts";

/**
 * The check that makes "pinned" mean "verified": before every poll, generation, gate and hook the
 * pinned copies are hashed again against the hashes stored with the contract. A mismatch ends the run
 * `failed: contract_tampered`, with the file, the expected and the found hash in the run's events.
 */
export const TAMPER_EVENT = "run.contract_tampered";

/** How a step ends the run at once: the outcome, and the tamper that caused it when there is one. */
export interface RunEnd {
  readonly outcome: Outcome;
  readonly tamper?: Tamper;
}

export function checkPins(contract: PinnedContract): Tamper | undefined {
  return verifyPins(contract.pins ?? []);
}

/** The run end for a tampered pin. */
export function tamperEnd(tamper: Tamper): RunEnd {
  return { outcome: { state: "failed", cause: "contract_tampered" }, tamper };
}

export function tamperText(tamper: Tamper): string {
  return `${tamper.label} (${tamper.path}) changed after admission: expected sha256:${tamper.expected}, found ${tamper.found === "missing" ? "no file" : `sha256:${tamper.found}`}`;
}

/** Ends the run as `end` says, its tamper (if any) recorded in the same transaction. */
export async function endRunWith(
  deps: DriverDeps,
  token: number,
  run: LoopRunRecord,
  end: RunEnd,
): Promise<void> {
  if (end.tamper !== undefined) deps.report?.(`contract tampered: ${tamperText(end.tamper)}`);
  await endRun(
    deps,
    token,
    run,
    end.outcome,
    end.tamper === undefined ? {} : { events: [{ type: TAMPER_EVENT, data: { ...end.tamper } }] },
  );
}

/** Verifies the pins now; when one was tampered with, ends the run and says so (true). */
export async function endIfTampered(deps: DriverDeps, token: number, run: LoopRunRecord): Promise<boolean> {
  const tamper = checkPins(run.contract);
  if (tamper === undefined) return false;
  await endRunWith(deps, token, run, tamperEnd(tamper));
  return true;
}
