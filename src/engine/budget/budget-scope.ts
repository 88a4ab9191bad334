import type { BudgetScope } from "../../plan/index.ts";

/**
 * Which scope a tripped limit belongs to, from the label budget resolution gave it: the codon's own
 * cap ends only the codon; a loop's pool ends the loop; anything else is the hank's (or the run's).
 */
export function scopeOfLimit(source: string | undefined): BudgetScope {
  if (source === undefined || source === "codon cap") return "codon";
  if (source.startsWith("loop ")) return "loop";
  return "hank";
}
