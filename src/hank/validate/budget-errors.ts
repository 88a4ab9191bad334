import { error, type ValidationIssue } from "../issues.ts";
import {
  type BudgetContainer,
  isProportional,
  percent,
  SHARE_EPSILON,
  shareSum,
} from "./budget-containers.ts";
import { closestMatch } from "./typo-map.ts";

/**
 * The four budget rules the schema cannot express, for the hank budget and every loop budget. The
 * messages are the reference runtime's; its "Fix:" sentence is our hint.
 */
export function checkBudgetErrors(containers: readonly BudgetContainer[]): ValidationIssue[] {
  return containers.flatMap(containerErrors);
}

function containerErrors(container: BudgetContainer): ValidationIssue[] {
  const { budget, path } = container;
  const out: ValidationIssue[] = [];
  const shares = budget.shares;
  if (shares !== undefined && !isProportional(budget)) {
    out.push(
      error(
        "budget-shares-without-proportional",
        [...path, "shares"],
        "budget.shares requires allocation mode 'proportional' or 'proportional-strict'.",
        "Set budget.allocation to 'proportional' or 'proportional-strict'.",
      ),
    );
  }
  if (isProportional(budget) && budget.maxDollars === undefined) {
    out.push(
      error(
        "budget-proportional-without-max",
        [...path, "allocation"],
        "Proportional allocation requires budget.maxDollars.",
        "Set budget.maxDollars to a positive number.",
      ),
    );
  }
  const sum = shareSum(budget);
  if (sum > 1 + SHARE_EPSILON) {
    out.push(
      error(
        "budget-shares-sum",
        [...path, "shares"],
        "budget.shares values must sum to at most 1.0.",
        `Reduce share fractions so their total does not exceed 100% (now ${percent(sum)}).`,
      ),
    );
  }
  for (const id of Object.keys(shares ?? {})) {
    if (container.childIds.includes(id)) continue;
    const near = closestMatch(id, container.childIds);
    const valid = container.childIds.length === 0 ? "(none)" : container.childIds.join(", ");
    out.push(
      error(
        "budget-shares-unknown-child",
        [...path, "shares", id],
        `budget.shares references unknown child IDs: ${id}. Valid IDs: ${valid}`,
        near === undefined
          ? `Shares name the ${container.scope === "hank" ? "top-level codons and loops" : "loop's codons"} by id.`
          : `Did you mean "${near}"?`,
      ),
    );
  }
  return out;
}
