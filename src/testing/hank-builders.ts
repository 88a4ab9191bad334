import type { CodonInput, HankFileInput } from "../hank/schema/index.ts";

/**
 * Small builders for test hanks, so a test states only what it is about. They build plain hank JSON
 * (what hank.json holds); validation still runs on it, like on any hank.
 */

type HankItemInput = HankFileInput["hank"][number];
type LoopInput = Extract<HankItemInput, { type: "loop" }>;

/**
 * A scripted codon: `promptText` is the script (docs/scripted-agent.md), `name` defaults to the id,
 * the model to `scripted` and `continuationMode` to `fresh`. `fields` adds or replaces any codon field.
 */
export function scriptedCodon(id: string, script: string, fields: Partial<CodonInput> = {}): CodonInput {
  return {
    id,
    name: id,
    model: "scripted",
    continuationMode: "fresh",
    promptText: script,
    ...fields,
  };
}

/** A loop of codons; `name` defaults to the id. */
export function scriptedLoop(
  id: string,
  terminateOn: LoopInput["terminateOn"],
  codons: readonly CodonInput[],
  fields: Partial<Omit<LoopInput, "type" | "codons">> = {},
): LoopInput {
  return { type: "loop", id, name: id, terminateOn, codons: [...codons], ...fields };
}

/** A hank of the given items; `fields` adds root fields (`overrides`, `meta`...). */
export function hankOf(
  items: readonly HankItemInput[],
  fields: Partial<Omit<HankFileInput, "hank">> = {},
): HankFileInput {
  return { meta: { name: "test hank", version: "1" }, ...fields, hank: [...items] };
}
