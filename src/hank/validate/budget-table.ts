import type { ResolvedModel } from "../models/index.ts";
import type { Allocation, Codon, ContainerBudget, HankFile, OnExceeded } from "../schema/index.ts";
import {
  type BudgetContainer,
  budgetContainers,
  effectiveOnExceeded,
  staticAllocations,
} from "./budget-containers.ts";
import { type HankView, own, viewOfHank } from "./hank-view.ts";

/**
 * The rows of the `--validate` budget table: one per budget scope (the hank, each loop with a
 * budget), each with its limits, shares and what every child gets at the start of a run. Pure.
 */
export interface BudgetTableChild {
  readonly id: string;
  readonly kind: "codon" | "loop";
  readonly share: number | undefined;
  /**
   * Dollars the child may spend at the start of the run: the whole pool for `shared`, the share (or
   * an even split of the unallocated rest) for proportional modes, bounded by the child's own cap.
   * Undefined when the scope has no dollar limit.
   */
  readonly allocatedDollars: number | undefined;
  readonly capDollars: number | undefined;
  readonly capSeconds: number | undefined;
  /** For codons, the policy that applies (codon, else loop, else hank); for loops, the loop's. */
  readonly onExceeded: OnExceeded;
  /** For codons, whether the model has pricing data (cost tracking works); undefined for loops. */
  readonly priced: boolean | undefined;
}

export interface BudgetTableRow {
  readonly scope: "hank" | "loop";
  /** `hank` or the loop id. */
  readonly id: string;
  readonly allocation: Allocation;
  readonly maxDollars: number | undefined;
  readonly maxTimeSeconds: number | undefined;
  readonly onExceeded: OnExceeded;
  readonly shares: Readonly<Record<string, number>>;
  readonly children: readonly BudgetTableChild[];
}

/**
 * The hank row appears when the hank has a budget or any codon or loop has one (codon caps are then
 * listed under an unlimited hank scope); a loop row appears for each loop with a budget.
 */
export function budgetTable(hank: HankFile, models: ReadonlyMap<string, ResolvedModel>): BudgetTableRow[] {
  const view = viewOfHank(hank);
  const anyBudget = hank.hank.some((item) =>
    item.type === "loop"
      ? item.budget !== undefined || item.codons.some((c) => c.budget !== undefined)
      : item.budget !== undefined,
  );
  const withHank: HankView =
    view.hankBudget === undefined && anyBudget ? { ...view, hankBudget: {} satisfies ContainerBudget } : view;
  const lookup: Lookup = { codons: new Map(), loopBudgets: new Map(), models };
  for (const item of hank.hank) {
    if (item.type === "loop" && item.budget !== undefined) lookup.loopBudgets.set(item.id, item.budget);
    for (const codon of item.type === "loop" ? item.codons : [item]) lookup.codons.set(codon.id, codon);
  }
  return budgetContainers(withHank).map((container) => row(container, withHank.hankBudget, lookup));
}

interface Lookup {
  readonly codons: Map<string, Codon>;
  readonly loopBudgets: Map<string, ContainerBudget>;
  readonly models: ReadonlyMap<string, ResolvedModel>;
}

function row(
  container: BudgetContainer,
  hankBudget: ContainerBudget | undefined,
  lookup: Lookup,
): BudgetTableRow {
  const { budget } = container;
  const allocations = staticAllocations(container);
  const loopBudget = container.scope === "loop" ? budget : undefined;
  const children = container.children.map((child): BudgetTableChild => {
    const codon = child.kind === "codon" ? lookup.codons.get(child.id) : undefined;
    const model = codon === undefined ? undefined : lookup.models.get(codon.model);
    const loopPolicy = lookup.loopBudgets.get(child.id)?.onExceeded ?? budget.onExceeded ?? "complete";
    return {
      id: child.id,
      kind: child.kind,
      share: own(budget.shares, child.id),
      allocatedDollars: allocations.get(child.id),
      capDollars: child.capDollars,
      capSeconds: child.capSeconds,
      onExceeded: codon === undefined ? loopPolicy : effectiveOnExceeded(codon, loopBudget, hankBudget),
      priced: codon === undefined ? undefined : model === undefined ? false : model.pricing !== null,
    };
  });
  return {
    scope: container.scope,
    id: container.id,
    allocation: budget.allocation ?? "shared",
    maxDollars: budget.maxDollars,
    maxTimeSeconds: budget.maxTimeSeconds,
    onExceeded: budget.onExceeded ?? "complete",
    shares: budget.shares ?? {},
    children,
  };
}
