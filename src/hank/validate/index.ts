/** Hank validation: every issue with code, path, message and hint, plus the data `--validate` shows. */
export { type BudgetTableChild, type BudgetTableRow, budgetTable } from "./budget-table.ts";
export { maskSecret } from "./env-report.ts";
export { isSecret, isSecretName, redactSecrets, secretMatches, secretShape } from "./secrets.ts";
export { type HankSummary, summarizeHank } from "./summary.ts";
export { CODON_TYPOS, ROOT_TYPOS } from "./typo-map.ts";
export { validateHank } from "./validate-hank.ts";
export type {
  EnvPassthroughEntry,
  PromptLineProblem,
  PromptSummary,
  ValidationContext,
  ValidationReport,
} from "./validation-types.ts";
