import { z } from "zod";

/** What happens when a budget trips: `complete` ends the codon gracefully, `fail` hands it to `onFailure`. */
export const OnExceeded = z.enum(["complete", "fail"]);
export type OnExceeded = z.infer<typeof OnExceeded>;

/** How a container's dollar budget is divided among its children. */
export const Allocation = z.enum(["shared", "proportional", "proportional-strict"]);
export type Allocation = z.infer<typeof Allocation>;

/** A budget on one codon. Inside a loop its caps apply per iteration. */
export const CodonBudget = z
  .strictObject({
    maxDollars: z
      .number()
      .positive()
      .optional()
      .describe("Max cost in USD. The codon stops when it is reached."),
    maxTimeSeconds: z.number().positive().optional().describe("Max wall-clock time in seconds."),
    maxOutputTokens: z.int().positive().optional().describe("Max output tokens over the codon's execution."),
    maxContextTokens: z
      .int()
      .positive()
      .optional()
      .describe("Max context tokens: the high-water mark of input + output of one turn."),
    onExceeded: OnExceeded.optional().describe("Overrides the container's onExceeded for this codon."),
  })
  .describe("Budget for one codon.");
export type CodonBudget = z.infer<typeof CodonBudget>;

/** A budget on a container: the whole hank (`overrides.budget`) or one loop (`loop.budget`). */
export const ContainerBudget = z
  .strictObject({
    maxDollars: z.number().positive().optional().describe("Total cost budget in USD."),
    maxTimeSeconds: z.number().positive().optional().describe("Wall-clock time limit in seconds."),
    allocation: Allocation.optional().describe(
      "How the dollar budget is divided among children. 'shared' (default): first come, first served. " +
        "'proportional': shares are reserved, unspent money flows back. 'proportional-strict': shares are " +
        "reserved, unspent money is gone.",
    ),
    shares: z
      .record(z.string(), z.number().gt(0).lte(1))
      .optional()
      .describe("Map of child codon or loop id to its fraction (0, 1] of the budget."),
    onExceeded: OnExceeded.optional().describe(
      "'complete' (default) ends gracefully; 'fail' fails the codon.",
    ),
  })
  .describe("Budget for a hank or a loop.");
export type ContainerBudget = z.infer<typeof ContainerBudget>;
