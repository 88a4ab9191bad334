import { error, type JsonPath, type ValidationIssue, warning } from "../issues.ts";
import type { ResolvedModel } from "../models/index.ts";
import type { Codon } from "../schema/index.ts";
import type { HankView, LoopHeader, LoopItemSlot } from "./hank-view.ts";

/**
 * `continue-previous` resumes the previous codon's session, so it needs a previous codon, the same
 * model, and context left to continue. "Previous" follows execution order: the item before, the last
 * codon of a loop that precedes, the codon before inside a loop body, and for a loop's first codon on
 * later iterations, the loop's last codon. An item that failed its schema is unknown: nothing is
 * checked against it rather than guessing.
 */
export type ModelOf = (codon: Codon) => ResolvedModel | undefined;

type Previous =
  | { readonly kind: "none" }
  | { readonly kind: "unknown" }
  | { readonly kind: "codon"; readonly codon: Codon; readonly topLevel: boolean }
  | { readonly kind: "loop"; readonly loop: LoopHeader; readonly last: Codon | undefined };

interface Continuing {
  readonly codon: Codon;
  readonly path: JsonPath;
  readonly topLevel: boolean;
}

export function checkContinuation(view: HankView, modelOf: ModelOf): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  let previous: Previous = { kind: "none" };
  for (const item of view.items) {
    if (item.kind === "codon") {
      if (item.codon !== undefined)
        out.push(...continueFrom(previous, { ...item, codon: item.codon, topLevel: true }, modelOf));
      previous =
        item.codon === undefined ? { kind: "unknown" } : { kind: "codon", codon: item.codon, topLevel: true };
    } else if (item.kind === "loop") {
      out.push(...loopBody(item, previous, modelOf));
      const last = item.codons.at(-1)?.codon;
      previous = item.loop === undefined ? { kind: "unknown" } : { kind: "loop", loop: item.loop, last };
    } else {
      previous = { kind: "unknown" };
    }
  }
  return out;
}

function loopBody(item: LoopItemSlot, before: Previous, modelOf: ModelOf): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  let previous = before;
  for (const slot of item.codons) {
    if (slot.codon !== undefined)
      out.push(...continueFrom(previous, { ...slot, codon: slot.codon, topLevel: false }, modelOf));
    previous =
      slot.codon === undefined ? { kind: "unknown" } : { kind: "codon", codon: slot.codon, topLevel: false };
  }
  out.push(...wrapAround(item, modelOf));
  return out;
}

/** On iterations after the first, the loop's first codon continues the loop's last codon. */
function wrapAround(item: LoopItemSlot, modelOf: ModelOf): ValidationIssue[] {
  const first = item.codons[0];
  const last = item.codons.at(-1);
  const terminate = item.loop?.terminateOn;
  if (
    first?.codon === undefined ||
    last?.codon === undefined ||
    item.codons.length < 2 ||
    terminate === undefined
  )
    return [];
  if (terminate.type === "iterationLimit" && terminate.limit < 2) return [];
  if (first.codon.continuationMode !== "continue-previous") return [];
  const mismatch = modelMismatch(first.codon, last.codon, modelOf);
  return mismatch === undefined
    ? []
    : [
        modelError(
          [...first.path, "continuationMode"],
          `${mismatch} (on iterations after the first, it continues the loop's last codon)`,
        ),
      ];
}

function continueFrom(previous: Previous, next: Continuing, modelOf: ModelOf): ValidationIssue[] {
  if (next.codon.continuationMode !== "continue-previous") return [];
  const at = [...next.path, "continuationMode"];
  switch (previous.kind) {
    case "none":
      return [
        warning(
          "continue-first-codon",
          at,
          `First codon has continuationMode "continue-previous" but there's no previous codon`,
          'Use "continuationMode": "fresh" for the first codon; it starts a new session either way.',
        ),
      ];
    case "unknown":
      return [];
    case "codon":
      return fromCodon(previous.codon, next, at, modelOf);
    case "loop":
      return fromLoop(previous.loop, previous.last, next, at, modelOf);
  }
}

const CANNOT = 'Cannot use continuationMode "continue-previous"';
const FRESH_HINT = 'Use "continuationMode": "fresh" and hand the work over in files.';

function fromCodon(prev: Codon, next: Continuing, at: JsonPath, modelOf: ModelOf): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (prev.exhaustWithPrompt !== undefined) {
    out.push(
      error(
        "continue-after-exhaust",
        at,
        `${CANNOT} after codon "${prev.id}", which uses exhaustWithPrompt: its context is exhausted.`,
        FRESH_HINT,
      ),
    );
  }
  const mismatch = modelMismatch(next.codon, prev, modelOf);
  if (mismatch !== undefined) out.push(modelError(at, mismatch));
  if (!hasCheckpoints(prev)) out.push(noCheckpoints(at, next.codon, `codon "${prev.id}"`));
  if (next.topLevel && prev.onFailure === "ignore") {
    out.push(
      warning(
        "continue-after-ignore",
        at,
        `Codon "${next.codon.id}" continues the session of codon "${prev.id}", which has onFailure "ignore"; if "${prev.id}" fails, there is no completed session to continue.`,
        `Use "continuationMode": "fresh", or give "${prev.id}" onFailure "abort" or "retry".`,
      ),
    );
  }
  return out;
}

function fromLoop(
  loop: LoopHeader,
  last: Codon | undefined,
  next: Continuing,
  at: JsonPath,
  modelOf: ModelOf,
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (loop.terminateOn.type === "contextExceeded") {
    out.push(
      error(
        "continue-after-context-loop",
        at,
        `${CANNOT} after loop "${loop.id}", which terminates on contextExceeded: its context is exhausted.`,
        FRESH_HINT,
      ),
    );
  }
  if (last === undefined) return out;
  if (last.exhaustWithPrompt !== undefined) {
    out.push(
      error(
        "continue-after-exhaust",
        at,
        `${CANNOT} after loop "${loop.id}", whose last codon "${last.id}" uses exhaustWithPrompt: its context is exhausted.`,
        FRESH_HINT,
      ),
    );
  }
  const mismatch = modelMismatch(next.codon, last, modelOf);
  if (mismatch !== undefined) out.push(modelError(at, `${mismatch} (the last codon of loop "${loop.id}")`));
  if (!hasCheckpoints(last))
    out.push(noCheckpoints(at, next.codon, `codon "${last.id}", the last codon of loop "${loop.id}",`));
  return out;
}

function hasCheckpoints(codon: Codon): boolean {
  return codon.checkpointedFiles !== undefined && codon.checkpointedFiles.length > 0;
}

function noCheckpoints(at: JsonPath, next: Codon, previous: string): ValidationIssue {
  return warning(
    "continue-without-checkpoints",
    at,
    `Codon "${next.id}" continues from ${previous} which checkpoints no files; its work may not survive the handoff.`,
    'Add "checkpointedFiles" to the previous codon for the files it produces.',
  );
}

/** A description of the mismatch, or undefined when the resolved models agree or one is unknown. */
function modelMismatch(next: Codon, prev: Codon, modelOf: ModelOf): string | undefined {
  const a = modelOf(next);
  const b = modelOf(prev);
  if (a === undefined || b === undefined) return undefined;
  if (a.provider === b.provider && a.id === b.id) return undefined;
  return `codon "${next.id}" uses ${a.requested} (${a.provider}/${a.id}) but codon "${prev.id}" uses ${b.requested} (${b.provider}/${b.id})`;
}

function modelError(at: JsonPath, detail: string): ValidationIssue {
  return error(
    "continue-model-mismatch",
    at,
    `${CANNOT} when model differs from previous codon: ${detail}.`,
    'Different models cannot share a session. Use "continuationMode": "fresh" at a model boundary, or give both codons the same model.',
  );
}
