import type { PlanSize } from "../events/plan-size.ts";
import type { HankFile } from "../hank/schema/index.ts";

/**
 * Pure: the size of a hank's plan (see `PlanSize`): each top-level codon once, each loop's body once per
 * iteration of its `iterationLimit`; a loop that ends on context exhaustion makes the total unknown.
 */
export function planSize(hank: HankFile): PlanSize {
  let codons: number | null = 0;
  const loops: PlanSize["loops"] = {};
  for (const item of hank.hank) {
    if (item.type !== "loop") {
      codons = codons === null ? null : codons + 1;
      continue;
    }
    const limit = item.terminateOn.type === "iterationLimit" ? item.terminateOn.limit : null;
    loops[item.id] = { iterations: limit, codons: item.codons.map((codon) => codon.id) };
    codons = codons === null || limit === null ? null : codons + limit * item.codons.length;
  }
  return { codons, loops };
}
