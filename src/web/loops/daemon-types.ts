import type { ParkReason, RunStateName, TerminalCause } from "../../events/loop-run-states.ts";

/**
 * The daemon's HTTP JSON as the pages read it (docs/loops.md, "The daemon"): only the fields shown.
 * The web layer does not import the Loops code; the words (states, causes, park reasons) come from the
 * shared vocabulary, so a state the pages do not know does not compile.
 */

export interface Meters {
  readonly generations: number;
  readonly tokens: number;
  readonly tokensKnown: boolean;
  readonly runningMs: number;
  readonly noProgress: number;
  readonly costUsd: number;
  readonly costKnown: boolean;
}

export interface Contract {
  readonly loopId: string;
  readonly name: string;
  readonly kind: string;
  readonly owner: string | null;
  readonly goal: string;
  readonly definitionOfDone: string | null;
  readonly limits: Readonly<Record<string, number>>;
  readonly clamped: readonly string[];
  readonly onExceeded: "halt" | "escalate";
  readonly gates: readonly { readonly id: string; readonly kind: string }[];
  readonly admittedAnyway?: string | null;
  /** What admission warned about: brakes the body could reach, a changed definition. */
  readonly notices?: readonly { readonly code: string; readonly message: string }[];
}

export interface Amendment {
  readonly budget: "tokens" | "wall_clock";
  readonly add: number;
  readonly by: string;
  readonly at: string;
}

export interface LoopRun {
  readonly id: string;
  readonly loopId: string;
  readonly key: string;
  readonly trigger: string;
  readonly state: RunStateName;
  readonly cause: TerminalCause | null;
  readonly parkReason: ParkReason | null;
  readonly contract: Contract;
  readonly meters: Meters;
  readonly amendments: readonly Amendment[];
  readonly createdAt: string;
  readonly stateSince: string;
  readonly endedAt: string | null;
}

export interface GateVerdict {
  readonly gateId: string;
  readonly verdict: string;
  readonly blockerIds: readonly string[];
  readonly cause?: string;
  readonly summary: string;
}

export interface Generation {
  readonly number: number;
  readonly state: string;
  readonly facts: {
    readonly body: { readonly kind: string; readonly message?: string };
    readonly gates: readonly GateVerdict[];
    readonly hash: string | null;
  };
  readonly layers: readonly {
    readonly codonId: string;
    readonly attempt?: number;
    readonly codon: string;
    readonly stream: string;
  }[];
  readonly tokens: number | null;
  readonly costUsd: number | null;
  readonly readMessages: readonly number[];
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export interface InboxMessage {
  readonly id: number;
  readonly kind: string;
  readonly author: string;
  readonly text: string;
  readonly createdAt: string;
  readonly readByGeneration: number | null;
}

export interface RunDetail {
  readonly run: LoopRun;
  readonly generations: readonly Generation[];
  readonly messages: readonly InboxMessage[];
  /** A terminal run's two end layers in the six kinds (null while live). */
  readonly endLayers: { readonly driver: string; readonly goal: string } | null;
}

export interface LoopsInfo {
  readonly loops: readonly { readonly loopId: string; readonly name: string; readonly kind: string }[];
  readonly defaults: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly ceilings: Readonly<Record<string, number>>;
  /** Per loop, computed by the daemon (the same figures `loops ls` prints): `done` is the only success. */
  readonly catalog: readonly CatalogEntry[];
}

export interface CatalogEntry {
  readonly loopId: string;
  readonly ended: number;
  readonly done: number;
  readonly noOp: number;
  readonly successPercent: number | null;
  readonly successText: string;
  readonly definitionChanged: string | null;
}
