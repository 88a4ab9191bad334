import type { JsonPath } from "../issues.ts";
import type { Codon, ContainerBudget, OnExceeded } from "../schema/index.ts";
import { type HankView, type LoopItemSlot, own } from "./hank-view.ts";

/**
 * Budget containers and their children, as the budget rules and the `--validate` budget table see
 * them: the hank (`overrides.budget`, children = top-level codons and loops) and each loop with a
 * budget (children = its codons). Shares name children by id.
 */
export interface BudgetChild {
  readonly id: string;
  readonly kind: "codon" | "loop";
  /** The child item (codon or loop) in the hank file. */
  readonly path: JsonPath;
  /** The child's own dollar cap: a codon's `budget.maxDollars`, a loop's `budget.maxDollars`. */
  readonly capDollars: number | undefined;
  readonly capSeconds: number | undefined;
}

export interface BudgetContainer {
  readonly scope: "hank" | "loop";
  /** `hank`, or the loop id. */
  readonly id: string;
  /** Path of the budget object. */
  readonly path: JsonPath;
  readonly budget: ContainerBudget;
  /** Children that passed the schema (caps known). */
  readonly children: readonly BudgetChild[];
  /** Every child id as written, for checking share keys. */
  readonly childIds: readonly string[];
  /** Whether every child passed its schema, so rules about the whole set of children can run. */
  readonly complete: boolean;
}

export function budgetContainers(view: HankView): BudgetContainer[] {
  const out: BudgetContainer[] = [];
  if (view.hankBudget !== undefined) out.push(hankContainer(view, view.hankBudget));
  for (const item of view.items) {
    if (item.kind === "loop" && item.loop?.budget !== undefined)
      out.push(loopContainer(item, item.loop.budget));
  }
  return out;
}

function hankContainer(view: HankView, budget: ContainerBudget): BudgetContainer {
  const children: BudgetChild[] = [];
  const childIds: string[] = [];
  for (const item of view.items) {
    if (item.kind === "invalid" || item.rawId === undefined) continue;
    childIds.push(item.rawId);
    if (item.kind === "codon" && item.codon !== undefined) children.push(codonChild(item.codon, item.path));
    if (item.kind === "loop" && item.loop !== undefined) {
      const cap = item.loop.budget;
      children.push({
        id: item.loop.id,
        kind: "loop",
        path: item.path,
        capDollars: cap?.maxDollars,
        capSeconds: cap?.maxTimeSeconds,
      });
    }
  }
  const complete = children.length === view.items.length;
  return { scope: "hank", id: "hank", path: ["overrides", "budget"], budget, children, childIds, complete };
}

function loopContainer(item: LoopItemSlot, budget: ContainerBudget): BudgetContainer {
  const children = item.codons.flatMap((slot) =>
    slot.codon === undefined ? [] : [codonChild(slot.codon, slot.path)],
  );
  const childIds = item.codons.flatMap((slot) => (slot.rawId === undefined ? [] : [slot.rawId]));
  return {
    scope: "loop",
    id: item.loop?.id ?? item.rawId ?? "?",
    path: [...item.path, "budget"],
    budget,
    children,
    childIds,
    complete: children.length === item.codons.length,
  };
}

function codonChild(codon: Codon, path: JsonPath): BudgetChild {
  return {
    id: codon.id,
    kind: "codon",
    path,
    capDollars: codon.budget?.maxDollars,
    capSeconds: codon.budget?.maxTimeSeconds,
  };
}

/** Tolerance for sums of decimal fractions (0.1 + 0.2). */
export const SHARE_EPSILON = 1e-9;

export function isProportional(budget: ContainerBudget): boolean {
  return budget.allocation === "proportional" || budget.allocation === "proportional-strict";
}

export function shareSum(budget: ContainerBudget): number {
  return Object.values(budget.shares ?? {}).reduce((a, b) => a + b, 0);
}

/**
 * The static dollar allocation of each child at the start of a run: shared pools give every child
 * the whole pool; proportional pools give shared children their share and split the unallocated
 * rest among children with neither a share nor a cap. A child's own cap bounds its allocation.
 */
export function staticAllocations(container: BudgetContainer): Map<string, number> {
  const max = container.budget.maxDollars;
  const out = new Map<string, number>();
  if (max === undefined) return out;
  const shares = container.budget.shares ?? {};
  const proportional = isProportional(container.budget);
  const absorbing = container.children.filter(
    (c) => own(shares, c.id) === undefined && c.capDollars === undefined,
  );
  const rest = Math.max(0, 1 - shareSum(container.budget)) * max;
  for (const child of container.children) {
    const share = own(shares, child.id);
    let amount = max;
    if (proportional)
      amount =
        share !== undefined ? share * max : child.capDollars === undefined ? rest / absorbing.length : max;
    out.set(child.id, roundMicro(Math.min(amount, child.capDollars ?? amount)));
  }
  return out;
}

/** Drops float noise (`(1 - 0.8) * 10` is 1.9999999999999996) below a millionth of a dollar. */
function roundMicro(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

/** What happens when a codon's budget trips: the codon's choice, else its loop's, else the hank's. */
export function effectiveOnExceeded(
  codon: Codon,
  loopBudget: ContainerBudget | undefined,
  hankBudget: ContainerBudget | undefined,
): OnExceeded {
  return codon.budget?.onExceeded ?? loopBudget?.onExceeded ?? hankBudget?.onExceeded ?? "complete";
}

export function dollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

export function percent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

export function childLabel(child: Pick<BudgetChild, "id" | "kind">): string {
  return `${child.kind === "codon" ? "Codon" : "Loop"} "${child.id}"`;
}
