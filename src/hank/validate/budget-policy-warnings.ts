import { type ValidationIssue, warning } from "../issues.ts";
import type { ResolvedModel } from "../models/index.ts";
import type { Codon, ContainerBudget } from "../schema/index.ts";
import { dollars, effectiveOnExceeded } from "./budget-containers.ts";
import type { HankView, PlacedCodon } from "./hank-view.ts";

/**
 * Warnings about budgets that interact badly with a codon's policies: W5 (exhaustWithPrompt under a
 * time budget), W6 (a dollar budget on a model without pricing), W8 (onExceeded "fail" with
 * onFailure "retry"), W9 (a fail-policy codon after others in a shared pool), W10 (a codon time cap
 * above its loop's).
 */
export function checkPolicyWarnings(
  view: HankView,
  codons: readonly PlacedCodon[],
  modelOf: (codon: Codon) => ResolvedModel | undefined,
): ValidationIssue[] {
  const hank = view.hankBudget;
  const out: ValidationIssue[] = [];
  for (const placed of codons) {
    const loopBudget = placed.loop?.loop?.budget;
    out.push(
      ...exhaustUnderTime(placed, loopBudget, hank),
      ...unpricedDollars(placed, loopBudget, hank, modelOf),
      ...failThenRetry(placed, loopBudget, hank),
      ...timeAboveLoop(placed, loopBudget),
    );
  }
  out.push(...lateFailInSharedPool(view, codons));
  return out;
}

function limits(codon: Codon, loop: ContainerBudget | undefined, hank: ContainerBudget | undefined) {
  const seconds = [codon.budget?.maxTimeSeconds, loop?.maxTimeSeconds, hank?.maxTimeSeconds].filter(
    (n): n is number => n !== undefined,
  );
  const dollarCaps = [codon.budget?.maxDollars, loop?.maxDollars, hank?.maxDollars].filter(
    (n): n is number => n !== undefined,
  );
  const tokens = codon.budget?.maxOutputTokens !== undefined || codon.budget?.maxContextTokens !== undefined;
  return { seconds, dollarCaps, any: seconds.length > 0 || dollarCaps.length > 0 || tokens };
}

function exhaustUnderTime(
  { codon, path }: PlacedCodon,
  loop: ContainerBudget | undefined,
  hank: ContainerBudget | undefined,
): ValidationIssue[] {
  const { seconds } = limits(codon, loop, hank);
  if (codon.exhaustWithPrompt === undefined || seconds.length === 0) return [];
  return [
    warning(
      "budget-W5",
      [...path, "exhaustWithPrompt"],
      `Codon "${codon.id}" uses exhaustWithPrompt under a time budget of ${Math.min(...seconds)}s; extensions continue until the context is exhausted, so the time limit will likely end the codon first.`,
      "Raise or remove maxTimeSeconds for this work, or lower maxExtensions.",
    ),
  ];
}

function unpricedDollars(
  { codon, path }: PlacedCodon,
  loop: ContainerBudget | undefined,
  hank: ContainerBudget | undefined,
  modelOf: (codon: Codon) => ResolvedModel | undefined,
): ValidationIssue[] {
  const model = modelOf(codon);
  if (model === undefined || model.pricing !== null || limits(codon, loop, hank).dollarCaps.length === 0)
    return [];
  return [
    warning(
      "budget-W6",
      [...path, "model"],
      `Codon "${codon.id}" has a dollar budget but model "${model.requested}" has no pricing data. Cost tracking may be inaccurate.`,
      "Use a model the catalog prices, or limit this codon by time or tokens instead.",
    ),
  ];
}

function failThenRetry(
  { codon, path }: PlacedCodon,
  loop: ContainerBudget | undefined,
  hank: ContainerBudget | undefined,
): ValidationIssue[] {
  if (codon.onFailure !== "retry" || !limits(codon, loop, hank).any) return [];
  if (effectiveOnExceeded(codon, loop, hank) !== "fail") return [];
  return [
    warning(
      "budget-W8",
      [...path, "onFailure"],
      `Codon "${codon.id}" fails when its budget is exceeded (onExceeded "fail") and has onFailure "retry"; a retry starts with the budget already spent, so it will likely exceed again.`,
      'Use onExceeded "complete", or onFailure "abort" or "ignore" for this codon.',
    ),
  ];
}

function timeAboveLoop(
  { codon, path, loop }: PlacedCodon,
  loopBudget: ContainerBudget | undefined,
): ValidationIssue[] {
  const own = codon.budget?.maxTimeSeconds;
  const cap = loopBudget?.maxTimeSeconds;
  if (own === undefined || cap === undefined || own <= cap) return [];
  return [
    warning(
      "budget-W10",
      [...path, "budget", "maxTimeSeconds"],
      `Codon "${codon.id}" budget.maxTimeSeconds (${own}s) is above the maxTimeSeconds of loop "${loop?.loop?.id}" (${cap}s); the loop's limit always ends it first.`,
      `Lower the codon's maxTimeSeconds to ${cap} or less, or raise the loop's.`,
    ),
  ];
}

/** Pools spend first come, first served: a codon that must not run short should run first. */
function lateFailInSharedPool(view: HankView, codons: readonly PlacedCodon[]): ValidationIssue[] {
  const pools = new Map<string, { budget: ContainerBudget; label: string; members: PlacedCodon[] }>();
  const hank = view.hankBudget;
  for (const placed of codons) {
    const loopBudget = placed.loop?.loop?.budget;
    const inLoopPool = loopBudget?.maxDollars !== undefined;
    const budget = inLoopPool ? loopBudget : hank;
    if (budget?.maxDollars === undefined || (budget.allocation ?? "shared") !== "shared") continue;
    const key = inLoopPool ? `loop:${placed.loop?.loop?.id}` : "hank";
    const label = inLoopPool ? `loop "${placed.loop?.loop?.id}"` : "the hank";
    const pool = pools.get(key) ?? { budget, label, members: [] };
    pool.members.push(placed);
    pools.set(key, pool);
  }
  const out: ValidationIssue[] = [];
  for (const { budget, label, members } of pools.values()) {
    for (const placed of members.slice(1)) {
      const loopBudget = placed.loop?.loop?.budget;
      if (effectiveOnExceeded(placed.codon, loopBudget, hank) !== "fail") continue;
      out.push(
        warning(
          "budget-W9",
          placed.path,
          `Codon "${placed.codon.id}" fails when the budget is exceeded but is not first in the shared pool of ${label} (${dollars(budget.maxDollars ?? 0)}). Earlier codons may exhaust the budget before it runs.`,
          'Move it first in the pool, or use allocation "proportional" with a share for it.',
        ),
      );
    }
  }
  return out;
}
