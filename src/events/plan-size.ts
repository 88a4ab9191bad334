import { z } from "zod";

/**
 * How big a run's plan is, journaled in the `RunStarted` transition's data (`planSize`) so that every
 * face can say "codon 4 of 7" and "iteration 3 of 6" without the hank. `codons` counts every codon run
 * of the plan, each loop iteration's codons included; it is null when a loop ends on context
 * exhaustion, whose iterations are not known in advance. `loops` gives, by loop id, each loop's
 * iteration limit (null for such a loop) and the ids of its body's codons. A limit is an upper bound: a budget or a caller's stop rule may end a loop
 * sooner. Absent in journals written before it existed: faces then show no totals.
 */
export const PlanSize = z.strictObject({
  codons: z.int().nonnegative().nullable(),
  loops: z.record(
    z.string(),
    z.strictObject({ iterations: z.int().positive().nullable(), codons: z.array(z.string()) }),
  ),
});
export type PlanSize = z.infer<typeof PlanSize>;

/** The plan size a `RunStarted` transition carries, when it carries a valid one. */
export function planSizeOf(transitionData: Readonly<Record<string, unknown>>): PlanSize | undefined {
  const parsed = PlanSize.safeParse(transitionData.planSize);
  return parsed.success ? parsed.data : undefined;
}
