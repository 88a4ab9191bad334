import { splitFirst } from "./parse-arguments.ts";
import type { StepCondition } from "./script-step.ts";

/**
 * Takes the conditions off the front of a directive's arguments: `attempts=1,2` (codon attempts, from
 * 1) and `iterations=0,3` (loop iterations, from 0), in either order, each at most once. What follows
 * them is the directive's own arguments. Returns the message of a malformed condition instead.
 */
export function takeConditions(
  directive: string,
  rest: string,
): { readonly when?: StepCondition; readonly rest: string } | string {
  let attempts: number[] | undefined;
  let iterations: number[] | undefined;
  let remaining = rest;
  for (;;) {
    const [word, after] = splitFirst(remaining);
    const match = /^(attempts|iterations)=(.*)$/.exec(word);
    const key = match?.[1];
    if (match === null || key === undefined) break;
    if ((key === "attempts" ? attempts : iterations) !== undefined)
      return `@${directive}: ${key} is given twice`;
    const list = parseList(match[2] ?? "", key === "attempts" ? 1 : 0);
    if (list === undefined) return listError(directive, key, match[2] ?? "");
    if (key === "attempts") attempts = list;
    else iterations = list;
    remaining = after;
  }
  if (attempts === undefined && iterations === undefined) return { rest };
  const when: StepCondition = {
    ...(attempts !== undefined && { attempts }),
    ...(iterations !== undefined && { iterations }),
  };
  return { when, rest: remaining };
}

function parseList(text: string, lowest: number): number[] | undefined {
  if (!/^\d+(,\d+)*$/.test(text)) return undefined;
  const numbers = text.split(",").map(Number);
  return numbers.some((n) => n < lowest) ? undefined : numbers;
}

function listError(directive: string, key: string, text: string): string {
  const what = key === "attempts" ? "attempt numbers from 1" : "loop iterations from 0";
  return `@${directive}: ${key} must be a comma-separated list of ${what}, got "${text}"`;
}

/** Whether a step limited by `when` runs on this attempt and iteration (undefined outside a loop). */
export function conditionHolds(
  when: StepCondition | undefined,
  attempt: number,
  iteration: number | undefined,
): boolean {
  if (when === undefined) return true;
  if (when.attempts !== undefined && !when.attempts.includes(attempt)) return false;
  if (when.iterations !== undefined) return iteration !== undefined && when.iterations.includes(iteration);
  return true;
}
