import type { JsonPath } from "../issues.ts";
import type {
  Codon,
  ContainerBudget,
  FileRefs,
  HankFile,
  Loop,
  Overrides,
  SentinelEntry,
} from "../schema/index.ts";

/**
 * The hank as far as the schema accepted it. Every check after the schema stage works on this view,
 * so one broken item never hides the issues of the others: a slot whose schema failed holds
 * `undefined`, and checks that need it (the "previous codon" of a continuation) skip rather than guess.
 */

export type LoopHeader = Omit<Loop, "codons">;

export interface CodonSlot {
  readonly path: JsonPath;
  /** The id as written, when it is a string, even if the codon failed its schema. */
  readonly rawId: string | undefined;
  /** The model as written, when it is a string, so a codon that failed its schema still gets it checked. */
  readonly rawModel: string | undefined;
  readonly codon: Codon | undefined;
  /**
   * The file refs as written (prompt files, sentinels), each field parsed on its own, when the codon
   * failed its schema: a missing file is then reported in the same round as the schema errors.
   * Absent otherwise.
   */
  readonly rawFileRefs?: RawFileRefs;
}

/** The file fields of a codon that failed its schema (each one undefined when unusable). */
export interface RawFileRefs {
  readonly promptFile: FileRefs | undefined;
  readonly appendSystemPromptFile: FileRefs | undefined;
  readonly sentinels: readonly SentinelEntry[] | undefined;
}

export interface CodonItemSlot extends CodonSlot {
  readonly kind: "codon";
}

export interface LoopItemSlot {
  readonly kind: "loop";
  readonly path: JsonPath;
  readonly rawId: string | undefined;
  readonly loop: LoopHeader | undefined;
  readonly codons: readonly CodonSlot[];
}

export interface InvalidItemSlot {
  readonly kind: "invalid";
  readonly path: JsonPath;
}

export type ItemSlot = CodonItemSlot | LoopItemSlot | InvalidItemSlot;

export interface HankView {
  readonly items: readonly ItemSlot[];
  readonly overrides: Overrides | undefined;
  /** `overrides.budget`, parsed on its own so a broken sibling override does not hide budget checks. */
  readonly hankBudget: ContainerBudget | undefined;
  readonly requirementsEnv: readonly string[];
  readonly requirementsTools: readonly string[];
  readonly globalSystemPromptFile: string | readonly string[] | undefined;
  readonly globalSystemPromptText: string | undefined;
}

/** A codon that passed its schema, with where it sits. */
export interface PlacedCodon {
  readonly codon: Codon;
  readonly path: JsonPath;
  /** The enclosing loop slot, for loop children. */
  readonly loop: LoopItemSlot | undefined;
  /** Position inside the loop (0-based), or the top-level index. */
  readonly position: number;
}

/** Every codon that passed its schema, in file order, loop children included. */
export function placedCodons(view: HankView): PlacedCodon[] {
  const out: PlacedCodon[] = [];
  view.items.forEach((item, index) => {
    if (item.kind === "codon" && item.codon !== undefined) {
      out.push({ codon: item.codon, path: item.path, loop: undefined, position: index });
    } else if (item.kind === "loop") {
      item.codons.forEach((slot, position) => {
        if (slot.codon !== undefined) out.push({ codon: slot.codon, path: slot.path, loop: item, position });
      });
    }
  });
  return out;
}

/** Every codon slot, loop children included, whether or not it passed its schema. */
export function codonSlots(view: HankView): CodonSlot[] {
  return view.items.flatMap((item) =>
    item.kind === "codon" ? [item] : item.kind === "loop" ? [...item.codons] : [],
  );
}

/** A record's own entry: user-written keys such as `constructor` never reach the prototype. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The view of a hank that passed the schema (every slot filled). */
export function viewOfHank(hank: HankFile): HankView {
  const items = hank.hank.map((item, index): ItemSlot => {
    const path = ["hank", index];
    if (item.type !== "loop")
      return { kind: "codon", path, rawId: item.id, rawModel: item.model, codon: item };
    const { codons, ...loop } = item;
    const slots = codons.map((codon, j) => ({
      path: [...path, "codons", j],
      rawId: codon.id,
      rawModel: codon.model,
      codon,
    }));
    return { kind: "loop", path, rawId: item.id, loop, codons: slots };
  });
  return {
    items,
    overrides: hank.overrides,
    hankBudget: hank.overrides?.budget,
    requirementsEnv: hank.requirements?.env ?? [],
    requirementsTools: hank.requirements?.tools ?? [],
    globalSystemPromptFile: hank.globalSystemPromptFile,
    globalSystemPromptText: hank.globalSystemPromptText,
  };
}
