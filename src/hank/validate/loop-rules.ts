import { error, type ValidationIssue, warning } from "../issues.ts";
import type { CodonSlot, HankView, LoopItemSlot } from "./hank-view.ts";

/**
 * Rules about codons inside loops: what a loop body may contain and the policies that make a long
 * loop fragile. Continuation between loop codons is in `continuation-rules.ts`.
 */
export function checkLoopRules(view: HankView): ValidationIssue[] {
  return view.items.flatMap((item) => (item.kind === "loop" ? loopIssues(item) : []));
}

/** The reference runtime's warning text, kept word for word. */
export const LOOP_ABORT_TAIL =
  "A single transient failure (idle timeout, one-off provider error) on any iteration will halt the entire loop run. Consider 'onFailure: retry' (with retryConfig for bounded attempts) or 'onFailure: ignore' to keep the loop progressing across transient blips.";

function loopIssues(item: LoopItemSlot): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const contextLoop = item.loop?.terminateOn.type === "contextExceeded";
  for (const slot of item.codons) {
    if (slot.codon === undefined) continue;
    if (contextLoop && slot.codon.continuationMode === "fresh") out.push(freshInContextLoop(slot, item));
    out.push(...abortPolicy(slot), ...rigWithoutAllowFailure(slot));
  }
  return out;
}

function freshInContextLoop(slot: CodonSlot, item: LoopItemSlot): ValidationIssue {
  return error(
    "context-loop-fresh-codon",
    [...slot.path, "continuationMode"],
    `Loop with contextExceeded termination cannot contain codons with continuationMode "fresh": codon "${slot.codon?.id}" in loop "${item.loop?.id}" starts a new session every iteration, so its context never fills.`,
    'Set "continuationMode": "continue-previous", or end the loop with { "type": "iterationLimit", "limit": N }.',
  );
}

function abortPolicy(slot: CodonSlot): ValidationIssue[] {
  const onFailure = slot.codon?.onFailure;
  const hint = 'Set "onFailure": "retry" with a "retryConfig", or "onFailure": "ignore".';
  if (onFailure === undefined) {
    return [
      warning(
        "loop-codon-abort",
        slot.path,
        `loop codon defaults to 'onFailure: abort'. ${LOOP_ABORT_TAIL}`,
        hint,
      ),
    ];
  }
  if (onFailure === "abort") {
    return [
      warning(
        "loop-codon-abort",
        [...slot.path, "onFailure"],
        `loop codon sets 'onFailure: abort'. ${LOOP_ABORT_TAIL}`,
        hint,
      ),
    ];
  }
  return [];
}

function rigWithoutAllowFailure(slot: CodonSlot): ValidationIssue[] {
  const ops = slot.codon?.rigSetup ?? [];
  return ops.flatMap((op, k) =>
    op.allowFailure === true
      ? []
      : [
          warning(
            "loop-rig-without-allow-failure",
            [...slot.path, "rigSetup", k],
            `Rig setup operation ${k + 1} of loop codon "${slot.codon?.id}" does not set allowFailure: true; setup that succeeds on iteration 0 can fail on a later iteration and halt the loop.`,
            'Add "allowFailure": true, or make the operation safe to repeat.',
          ),
        ],
  );
}
