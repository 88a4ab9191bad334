export { formatUsd, reachedUsd, remainingUsd, roundUsd, sumUsd } from "../../util/dollars.ts";
export { allocateChild, type BudgetChild, type DollarPool } from "./allocate-child.ts";
export { type MeterReading, type MeterResult, type MeterState, meter, startMeter } from "./budget-meter.ts";
export {
  type BudgetRowStatus,
  type BudgetSummary,
  type BudgetSummaryInput,
  type BudgetSummaryRow,
  budgetSummary,
  type CodonBudgetRecord,
} from "./budget-summary.ts";
export { type CeilingSources, type CeilingValues, effectiveCeiling } from "./ceiling.ts";
export { type ResolveCodonBudgetInput, resolveCodonBudget } from "./resolve-codon-budget.ts";
export {
  BUDGET_CURRENCIES,
  type BudgetCurrency,
  type BudgetExceeded,
  type BudgetLimits,
  type CodonLimits,
  type DurationLimit,
  type ResolvedLimit,
} from "./types.ts";
