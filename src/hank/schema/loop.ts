import { z } from "zod";
import { ContainerBudget } from "./budget.ts";
import { Codon } from "./codon.ts";

/** Termination conditions are not strict, as in the reference runtime (validation warns on extra fields). */
export const IterationLimit = z.object({
  type: z.literal("iterationLimit"),
  limit: z.int().min(1, "Iteration limit must be at least 1"),
});

export const ContextExceeded = z.object({ type: z.literal("contextExceeded") });

/** When a loop ends: after `limit` iterations, or when the runtime reports context exhaustion. */
export const TerminateOn = z.discriminatedUnion("type", [IterationLimit, ContextExceeded]);
export type TerminateOn = z.infer<typeof TerminateOn>;

export const LoopShape = {
  type: z.literal("loop").describe("Type discriminator; required for loops."),
  id: z.string().min(1).describe("Unique identifier for this loop."),
  name: z.string().min(1).describe("Human-readable name shown in the UI and logs."),
  description: z.string().optional(),
  terminateOn: TerminateOn.describe("Termination condition of the loop."),
  codons: z
    .array(Codon)
    .min(1, "Loop must contain at least one codon")
    .describe("Codons run in order in every iteration. Loops do not nest."),
  budget: ContainerBudget.optional().describe("Budget scope for this loop."),
  archiveOnSuccess: z
    .array(z.string().min(1))
    .optional()
    .describe("Globs relative to agentRoot, archived once when the loop terminates."),
};

/** A codon sequence repeated until `terminateOn`; expanded lazily, one iteration at a time. */
export const Loop = z.strictObject(LoopShape).describe("A loop of codons.");
export type Loop = z.infer<typeof Loop>;

export const LOOP_FIELDS = Object.keys(LoopShape);
