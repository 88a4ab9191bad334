import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../../hank/schema/index.ts";
import { type CodonRecord, initialRunState, type RunState } from "../../journal/index.ts";
import { emptyCodonRecord } from "../../journal/run-state.ts";
import { buildPlan, type ExecutionPlan, nextIteration, type PlannedCodon } from "../../plan/index.ts";
import type { EngineOptions } from "../engine-types.ts";
import { LoopLedger, resolveLimits, type SpendRecords } from "./budget-input.ts";

/**
 * Budget resolution with the run's ledger of finished loop executions must give exactly the limits a
 * fresh resolution gives (sums continued in the same order), while reading a bounded number of records
 * per codon however long the loop has run.
 */

const codon = (id: string, budget?: Record<string, unknown>) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "fresh",
  promptText: "go",
  ...(budget !== undefined && { budget }),
});

function hankWith(loopBudget: Record<string, unknown>, hankBudget?: Record<string, unknown>): HankFile {
  return HankFile.parse({
    ...(hankBudget !== undefined && { overrides: { budget: hankBudget } }),
    hank: [
      codon("A"),
      {
        type: "loop",
        id: "L",
        name: "L",
        terminateOn: { type: "iterationLimit", limit: 100_000 },
        budget: loopBudget,
        codons: [codon("x", { maxDollars: 0.4 }), codon("y")],
      },
      codon("B"),
    ],
  });
}

/** Run records kept the way the engine's store keeps them: replaced, never changed in place. */
class Records implements SpendRecords {
  readonly byId = new Map<string, CodonRecord>();
  reads = 0;
  #state: RunState = initialRunState();

  codon(id: string): CodonRecord | undefined {
    this.reads++;
    return this.byId.get(id);
  }

  state(): RunState {
    return this.#state;
  }

  finish(id: string, cost: number, durationMs: number, status: CodonRecord["status"] = "completed"): void {
    const before = this.byId.get(id) ?? emptyCodonRecord(id);
    this.byId.set(id, {
      ...before,
      status,
      cost: before.cost + cost,
      durationMs: before.durationMs + durationMs,
    });
    this.#state = {
      ...this.#state,
      totals: { ...this.#state.totals, durationMs: this.#state.totals.durationMs + durationMs },
    };
  }
}

const OPTIONS: EngineOptions = { headless: true };

interface Step {
  readonly plan: ExecutionPlan;
  readonly entry: PlannedCodon;
}

/** Runs A, then `iterations` of the loop, resolving each codon with the ledger and without it. */
function* walk(hank: HankFile, iterations: number): Generator<Step> {
  let plan = buildPlan(hank);
  yield { plan, entry: entryOf(plan, "A") };
  for (let i = 0; i < iterations; i++) {
    if (i > 0) plan = nextIteration(plan, "L");
    for (const id of [`x#${i}`, `y#${i}`]) yield { plan, entry: entryOf(plan, id) };
  }
}

function entryOf(plan: ExecutionPlan, runtimeId: string): PlannedCodon {
  const entry = plan.entries.find((e) => e.runtimeId === runtimeId);
  if (entry === undefined) throw new Error(`no ${runtimeId}`);
  return entry;
}

function codonOf(hank: HankFile, entry: PlannedCodon) {
  const item = hank.hank[entry.topIndex];
  if (item?.type === "loop") return item.codons[entry.loop?.position ?? 0] ?? item.codons[0];
  return item;
}

/** A cost per execution with enough variety that a wrong sum or order shows. */
const costOf = (step: number) => ((step * 7919) % 13) / 100 + 0.001 * (step % 3);

function compare(hank: HankFile, iterations: number, fail?: (step: number) => boolean): void {
  const records = new Records();
  const ledger = new LoopLedger();
  let step = 0;
  for (const { plan, entry } of walk(hank, iterations)) {
    const config = codonOf(hank, entry);
    assert.ok(config !== undefined && "promptText" in config);
    const withLedger = resolveLimits(hank, plan, entry, config, records, OPTIONS, ledger);
    const fresh = resolveLimits(hank, plan, entry, config, records, OPTIONS);
    assert.deepEqual(withLedger, fresh, `limits of ${entry.runtimeId}`);
    records.finish(entry.runtimeId, costOf(step), 1000 + step, fail?.(step) ? "failed" : "completed");
    step++;
  }
}

describe("resolveLimits with the run's loop ledger", () => {
  it("gives the limits of a fresh resolution: shared loop pool inside a hank pool", () => {
    compare(hankWith({ maxDollars: 40, maxTimeSeconds: 500 }, { maxDollars: 60, maxTimeSeconds: 900 }), 60);
  });

  it("gives the limits of a fresh resolution: proportional-strict loop shares drawing on a hank pool", () => {
    const loop = { maxDollars: 30, allocation: "proportional-strict", shares: { x: 0.01, y: 0.02 } };
    compare(hankWith(loop, { maxDollars: 50 }), 60, (step) => step % 5 === 0);
  });

  it("gives the limits of a fresh resolution: a proportional loop without shares", () => {
    compare(hankWith({ maxDollars: 25, allocation: "proportional" }), 60);
  });

  it("reads a bounded number of records per codon, however many iterations ran", () => {
    const hank = hankWith({ maxDollars: 1e6, maxTimeSeconds: 1e7 }, { maxDollars: 1e6 });
    const records = new Records();
    const ledger = new LoopLedger();
    const reads: number[] = [];
    for (const { plan, entry } of walk(hank, 400)) {
      const config = codonOf(hank, entry);
      assert.ok(config !== undefined && "promptText" in config);
      records.reads = 0;
      resolveLimits(hank, plan, entry, config, records, OPTIONS, ledger);
      reads.push(records.reads);
      records.finish(entry.runtimeId, 0.01, 10);
    }
    const late = Math.max(...reads.slice(-100));
    assert.ok(late <= 12, `records read per codon late in the loop: ${late}`);
  });

  it("folds again when a finished execution runs again (redo) or its record is dropped (rollback)", () => {
    const hank = hankWith({ maxDollars: 40 }, { maxDollars: 60 });
    const records = new Records();
    const ledger = new LoopLedger();
    const steps = [...walk(hank, 6)];
    for (const { plan, entry } of steps) {
      const config = codonOf(hank, entry);
      assert.ok(config !== undefined && "promptText" in config);
      resolveLimits(hank, plan, entry, config, records, OPTIONS, ledger);
      records.finish(entry.runtimeId, 1, 10);
    }
    const last = steps[steps.length - 1];
    assert.ok(last !== undefined);
    const check = (entry: PlannedCodon) => {
      const config = codonOf(hank, entry);
      assert.ok(config !== undefined && "promptText" in config);
      assert.deepEqual(
        resolveLimits(hank, last.plan, entry, config, records, OPTIONS, ledger),
        resolveLimits(hank, last.plan, entry, config, records, OPTIONS),
      );
    };
    // A redo of x#2 spends again: its record grows while it is the codon being resolved.
    const redone = entryOf(last.plan, "x#2");
    check(redone);
    records.finish("x#2", 5, 10);
    check(entryOf(last.plan, "y#5"));
    // A rollback drops the records after x#4; the ledger must not keep their spend.
    for (const id of ["y#4", "x#5", "y#5"]) records.byId.delete(id);
    check(entryOf(last.plan, "y#5"));
  });
});
