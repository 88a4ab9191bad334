import { type ValidationIssue, warning } from "../issues.ts";
import {
  type BudgetChild,
  type BudgetContainer,
  childLabel,
  dollars,
  isProportional,
  percent,
  SHARE_EPSILON,
  shareSum,
} from "./budget-containers.ts";
import { own } from "./hank-view.ts";

/**
 * Warnings about proportional shares that cannot work out as written: W1/W3 (a cap above the
 * share, hank/loop), W2/W4 (shares under 100% and nobody to absorb the rest, hank/loop), W7 (an
 * unshared child when the shares already take 100%).
 */
export function checkShareWarnings(containers: readonly BudgetContainer[]): ValidationIssue[] {
  return containers.flatMap((container) => {
    const max = container.budget.maxDollars;
    if (!isProportional(container.budget) || max === undefined) return [];
    // Whether the rest is absorbed depends on every child; with one broken, say nothing rather than guess.
    const whole = container.complete
      ? [...unallocatedRest(container, max), ...starvedChildren(container)]
      : [];
    return [...capAboveShare(container, max), ...whole];
  });
}

function capAboveShare(container: BudgetContainer, max: number): ValidationIssue[] {
  const code = container.scope === "hank" ? "budget-W1" : "budget-W3";
  const shares = container.budget.shares ?? {};
  return container.children.flatMap((child) => {
    const share = own(shares, child.id);
    if (share === undefined || child.capDollars === undefined) return [];
    const allocation = share * max;
    if (child.capDollars <= allocation + SHARE_EPSILON) return [];
    return [
      warning(
        code,
        [...child.path, "budget", "maxDollars"],
        `${childLabel(child)} budget.maxDollars (${dollars(child.capDollars)}) is above its proportional allocation (${dollars(allocation)}, ${percent(share)} of ${dollars(max)}). The cap will never be reached.`,
        `Lower the cap to ${dollars(allocation)} or less, or raise the share.`,
      ),
    ];
  });
}

/** Children without a share and without their own cap take the unallocated rest. */
function absorbs(child: BudgetChild, shares: Readonly<Record<string, number>>): boolean {
  return own(shares, child.id) === undefined && child.capDollars === undefined;
}

function unallocatedRest(container: BudgetContainer, max: number): ValidationIssue[] {
  const shares = container.budget.shares ?? {};
  const sum = shareSum(container.budget);
  if (Object.keys(shares).length === 0 || sum >= 1 - SHARE_EPSILON) return [];
  if (container.children.some((child) => absorbs(child, shares))) return [];
  const where = container.scope === "hank" ? "the hank" : `loop "${container.id}"`;
  return [
    warning(
      container.scope === "hank" ? "budget-W2" : "budget-W4",
      [...container.path, "shares"],
      `budget.shares of ${where} sum to ${percent(sum)} and every child has a share or its own cap; the remaining ${percent(1 - sum)} (${dollars((1 - sum) * max)}) is never allocated.`,
      "Raise the shares to a total of 100%, or leave one child without a share to take the rest.",
    ),
  ];
}

function starvedChildren(container: BudgetContainer): ValidationIssue[] {
  const shares = container.budget.shares ?? {};
  if (shareSum(container.budget) < 1 - SHARE_EPSILON) return [];
  return container.children
    .filter((child) => absorbs(child, shares))
    .map((child) =>
      warning(
        "budget-W7",
        child.path,
        `${childLabel(child)} has no share and budget.shares already sum to 100%. It will start with $0 budget and immediately exceed.`,
        `Give "${child.id}" a share (and lower the others), or give it its own budget.maxDollars.`,
      ),
    );
}
