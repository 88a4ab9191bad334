import { error, type ValidationIssue } from "../issues.ts";
import { applyModelOverride } from "../load.ts";
import { checkAgentPrompts } from "./agent-prompts.ts";
import { budgetContainers } from "./budget-containers.ts";
import { checkBudgetErrors } from "./budget-errors.ts";
import { checkPolicyWarnings } from "./budget-policy-warnings.ts";
import { checkShareWarnings } from "./budget-share-warnings.ts";
import { checkCodonRules, checkGlobalPromptRules } from "./codon-rules.ts";
import { checkContinuation } from "./continuation-rules.ts";
import { checkDataSource } from "./data-source.ts";
import { checkDuplicateIds } from "./duplicate-ids.ts";
import { checkCodonEnv, envPassthrough } from "./env-report.ts";
import { codonSlots, isRecord, placedCodons } from "./hank-view.ts";
import { checkHarnessAvailability } from "./harness-availability.ts";
import { checkIgnoredFields } from "./ignored-fields.ts";
import { checkLoopRules } from "./loop-rules.ts";
import { checkModels, type ModelOverrideSource } from "./model-checks.ts";
import { checkPromptFiles } from "./prompt-files.ts";
import { checkRequirements, pathToolFinder } from "./requirements.ts";
import { runtimeIdCollisions } from "./runtime-id-collisions.ts";
import { checkSchema } from "./schema-check.ts";
import { redactSecrets } from "./secrets.ts";
import type { SentinelStage, ValidationContext, ValidationReport } from "./validation-types.ts";
import { checkCodonPaths, checkLoopPaths } from "./workspace-paths.ts";

/**
 * Validates a hank (the parsed JSON of hank.json) and collects every issue; never throws. The sentinel
 * checks come in as `sentinels` (see `SentinelStage`); `validateHank` passes the real ones.
 *
 * Stages, in the reference runtime's order: model override → schema (root, then each item on its
 * own) → requirements (env, tools) → refs and files → semantic rules (codons, ids, loops,
 * continuation) → models → budgets. Later stages run on whatever passed the schema, so one broken
 * codon does not hide the issues of the others.
 *
 * Model override: the CLI `-m` (`context.modelOverride`) replaces every codon's model, loops
 * included, before anything is checked. Without `-m`, a valid `overrides.model` string does the same:
 * it is the hank's model for every codon. An invalid override is reported once where it was given.
 */
export function validateHankWith(
  raw: unknown,
  context: ValidationContext,
  sentinels: SentinelStage,
): ValidationReport {
  try {
    return runValidation(raw, context, sentinels);
  } catch (caught) {
    return internalFailure(caught, context);
  }
}

/** The sentinel stage of a hank that declares no sentinel: it has nothing to check. */
export const NO_SENTINELS: SentinelStage = {
  checkSentinels: () => [],
  checkUnparsedSentinels: () => [],
};

/**
 * Whether `raw` holds a `sentinels` field anywhere. When it does not, the sentinel stage finds nothing
 * (it checks only what codons list under `sentinels`) and `NO_SENTINELS` may stand in for it.
 */
export function mayDeclareSentinels(raw: unknown): boolean {
  if (Array.isArray(raw)) return raw.some(mayDeclareSentinels);
  if (!isRecord(raw)) return false;
  return Object.hasOwn(raw, "sentinels") || Object.values(raw).some(mayDeclareSentinels);
}

function runValidation(raw: unknown, context: ValidationContext, sentinels: SentinelStage): ValidationReport {
  const hankModel = declaredHankModel(raw);
  const source: ModelOverrideSource =
    context.modelOverride !== undefined
      ? { from: "cli", model: context.modelOverride }
      : hankModel !== undefined
        ? { from: "overrides", model: hankModel }
        : { from: "none" };
  const prepared = source.from === "none" ? raw : applyModelOverride(raw, source.model);
  const schema = checkSchema(prepared);
  const { view } = schema;
  const codons = placedCodons(view);
  const models = checkModels(codonSlots(view), { hankModel, source });
  const prompts = checkPromptFiles(view, codons, context.hankDir);
  const containers = budgetContainers(view);
  const findTool = context.findTool ?? pathToolFinder(context.env);
  const issues: ValidationIssue[] = [
    ...schema.issues,
    ...checkIgnoredFields(prepared),
    ...checkRequirements(view, context.env, findTool),
    ...prompts.issues,
    ...codons.flatMap((placed) => [
      ...checkCodonPaths(placed, context.hankDir),
      ...sentinels.checkSentinels(placed, context.hankDir),
    ]),
    ...sentinels.checkUnparsedSentinels(view, context.hankDir),
    ...checkLoopPaths(view),
    ...checkGlobalPromptRules(view),
    ...codons.flatMap(checkCodonRules),
    ...checkDuplicateIds(view),
    ...(schema.hank === undefined ? [] : runtimeIdCollisions(schema.hank)),
    ...checkLoopRules(view),
    ...checkContinuation(view, models.modelOf),
    ...models.issues,
    ...codons.flatMap(checkCodonEnv),
    ...checkBudgetErrors(containers),
    ...checkShareWarnings(containers),
    ...checkPolicyWarnings(view, codons, models.modelOf),
    ...checkHarnessAvailability(codons, models.modelOf, context.harnessProblem),
    ...checkAgentPrompts(codons, models.modelOf, prompts.fileTexts, context.promptProblems),
    ...(context.dataPath === undefined ? [] : checkDataSource(context.dataPath, context.dataShown)),
  ];
  const base = {
    ok: !issues.some((issue) => issue.severity === "error"),
    issues: issues.map(withoutSecrets),
    models: models.models,
    prompts: prompts.prompts,
    envPassthrough: envPassthrough(context.env),
  };
  return schema.hank === undefined ? base : { ...base, hank: schema.hank };
}

/** Messages and hints echo what the hank says; a credential in it is never shown, not even partly. */
function withoutSecrets(issue: ValidationIssue): ValidationIssue {
  return { ...issue, message: redactSecrets(issue.message), hint: redactSecrets(issue.hint) };
}

/** `overrides.model` when it is a usable string; a wrong type is left to the schema stage. */
function declaredHankModel(raw: unknown): string | undefined {
  if (!isRecord(raw) || !isRecord(raw.overrides)) return undefined;
  const model = raw.overrides.model;
  return typeof model === "string" && model !== "" ? model : undefined;
}

/** A bug in a check must not crash the CLI; it is reported as an error finding instead. */
function internalFailure(caught: unknown, context: ValidationContext): ValidationReport {
  const reason = caught instanceof Error ? caught.message : String(caught);
  return {
    ok: false,
    issues: [
      error(
        "validator-internal-error",
        [],
        `Validation stopped on an internal error: ${reason}`,
        "This is a bug in hankweave; please report it with the hank file.",
      ),
    ],
    models: new Map(),
    prompts: new Map(),
    envPassthrough: safeEnv(context),
  };
}

function safeEnv(context: ValidationContext) {
  try {
    return envPassthrough(context.env);
  } catch {
    return [];
  }
}
