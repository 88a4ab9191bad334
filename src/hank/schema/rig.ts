import { z } from "zod";

/**
 * Strictness follows the reference runtime: rig operations and `beforeCopy` commands (and the objects
 * inside them) drop unknown fields, which validation reports as warnings; an `outputFiles` group is
 * strict.
 */

/** Copies a file or tree from the hank directory into the agent workspace before the codon starts. */
export const CopyRigOp = z.object({
  type: z.literal("copy"),
  copy: z.object({
    from: z.string().min(1).describe("Source, relative to the hank directory, '/'-separated."),
    to: z
      .string()
      .min(1)
      .describe("Target path, relative to agentRoot (file or directory; renaming allowed)."),
  }),
  allowFailure: z
    .boolean()
    .optional()
    .describe("When true, a failure of this operation does not fail the codon."),
});
export type CopyRigOp = z.infer<typeof CopyRigOp>;

/** Where a rig command runs: agentRoot, or the target of the most recent copy. */
export const RigWorkingDirectory = z.enum(["project", "lastCopied"]);

/** Runs a shell command in the workspace before the codon starts. */
export const CommandRigOp = z.object({
  type: z.literal("command"),
  command: z.object({
    run: z.string().describe("Shell command line."),
    workingDirectory: RigWorkingDirectory.optional().describe("'project' (default) or 'lastCopied'."),
  }),
  allowFailure: z
    .boolean()
    .optional()
    .describe("When true, a failure of this operation does not fail the codon."),
});
export type CommandRigOp = z.infer<typeof CommandRigOp>;

export const RigOp = z.discriminatedUnion("type", [CopyRigOp, CommandRigOp]);
export type RigOp = z.infer<typeof RigOp>;

/** A command run in agentRoot before output files are copied out. */
export const BeforeCopyCommand = z.object({
  type: z.literal("command"),
  command: z.object({
    run: z.string().describe("Shell command line."),
    workingDirectory: z.literal("project").optional(),
  }),
});
export type BeforeCopyCommand = z.infer<typeof BeforeCopyCommand>;

/** One group of files copied to the `-o` output directory after the codon succeeds. */
export const OutputFileGroup = z.strictObject({
  copy: z.array(z.string().min(1)).min(1).describe("Globs relative to agentRoot."),
  beforeCopy: z.array(BeforeCopyCommand).optional().describe("Commands run in agentRoot before copying."),
});
export type OutputFileGroup = z.infer<typeof OutputFileGroup>;
