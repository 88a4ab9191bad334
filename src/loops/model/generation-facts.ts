import type { DependencyCause } from "../../events/loop-run-states.ts";
import type { GateVerdictKind } from "../../events/loop-words.ts";

export type { GateVerdictKind } from "../../events/loop-words.ts";

/**
 * What the coordinator records about each generation, and the only input the stop model decides from.
 * Plain data, stored as is.
 */

export interface GateVerdict {
  readonly gateId: string;
  readonly verdict: GateVerdictKind;
  /** Sorted ids of the blocking issues the gate reported (the blocker signature's input). */
  readonly blockerIds: readonly string[];
  /** For `blocked`: which dependency is missing. */
  readonly cause?: DependencyCause;
  /** For `error`: the gate could not run at all (missing program), so retrying cannot help. */
  readonly unrecoverable?: boolean;
  /** One line for people: the gate's last output line, the judge's summary, the error. */
  readonly summary: string;
  readonly tokens?: number | null;
}

/**
 * How the body ended: `completed`; `error` (it failed; `unrecoverable` when retrying cannot help, e.g.
 * an invalid hank); `aborted` (a stop); `interrupted` (the driver died; a resume finishes it);
 * `blocked` (it could not start for a missing dependency or credential).
 */
export type BodyEnd =
  | { readonly kind: "completed" }
  | { readonly kind: "error"; readonly message: string; readonly unrecoverable: boolean }
  | { readonly kind: "blocked"; readonly cause: DependencyCause; readonly message: string }
  | { readonly kind: "aborted"; readonly message: string }
  | { readonly kind: "interrupted" };

export interface GenerationFacts {
  readonly number: number;
  readonly body: BodyEnd;
  /** The gates that ran, in order; they stop at the first that does not pass. */
  readonly gates: readonly GateVerdict[];
  /** The generation hash; null when the body did not complete (it never counts toward the windows). */
  readonly hash: string | null;
  /**
   * Set when the inactivity clock ended the generation: no node (codon, gate, hook) reached a terminal
   * state for `inactivity_sec` of running time while none was running.
   */
  readonly inactive?: true;
}

/** A generation that failed: the body failed or a gate could not judge. */
export function isFailedGeneration(facts: GenerationFacts): boolean {
  return facts.body.kind === "error" || facts.gates.some((gate) => gate.verdict === "error");
}

/** The sorted set of blocker ids over all gates of a generation. */
export function blockerSignature(facts: GenerationFacts): readonly string[] {
  const ids = new Set<string>();
  for (const gate of facts.gates) for (const id of gate.blockerIds) ids.add(id);
  return [...ids].sort();
}
