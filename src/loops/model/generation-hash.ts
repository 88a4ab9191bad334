import { createHash } from "node:crypto";
import type { HashField } from "../definition/definition-schema.ts";
import type { GateVerdict } from "./generation-facts.ts";

/**
 * The generation hash: a typed hash over the contract's `hash_fields`. `workspace` is the tree id of
 * the generation's last checkpoint (what the body left in the checkpointed files); `gates` is each
 * gate's verdict with its sorted blocker ids. A generation makes progress when its hash is not among
 * the previous `window` hashes, which also catches an A/B oscillation.
 */
export interface HashInput {
  readonly workspaceTree: string | null;
  readonly gates: readonly GateVerdict[];
}

export function generationHash(fields: readonly HashField[], input: HashInput): string {
  const parts: Record<string, unknown> = {};
  if (fields.includes("workspace")) parts.workspace = input.workspaceTree;
  if (fields.includes("gates")) {
    parts.gates = input.gates.map((gate) => [gate.gateId, gate.verdict, [...gate.blockerIds].sort()]);
  }
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}
