import type { z } from "zod";
import { Codon, Loop } from "../schema/index.ts";
import { unwrapSchema } from "./schema-walk.ts";
import { CODON_TYPOS } from "./typo-map.ts";
import type { FieldOwner } from "./unknown-fields.ts";

/**
 * A loop without its body. The body is checked codon by codon, so a bad codon is reported with its
 * own path and does not turn the whole loop into one opaque union failure.
 */
export const LoopHeaderSchema = Loop.omit({ codons: true });

/** Which typo map and hint style apply to unknown keys of the object a schema describes. */
export function fieldOwner(schema: z.ZodType | undefined): {
  owner: FieldOwner;
  typos: Readonly<Record<string, string>> | undefined;
} {
  const inner = schema === undefined ? undefined : unwrapSchema(schema);
  if (inner === Codon) return { owner: "codon", typos: CODON_TYPOS };
  if (inner === LoopHeaderSchema) return { owner: "loop", typos: undefined };
  return { owner: "other", typos: undefined };
}
