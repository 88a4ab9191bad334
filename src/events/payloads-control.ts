import { z } from "zod";

/**
 * Run control: commands a client (the TUI, a server client, the library caller) sends to a live run.
 * They are an inbox read at codon boundaries, never merged flags: each command is journaled when it is
 * received and again when the run applies or refuses it, so every change of course is traceable to the
 * message that caused it. Our addition to the reference catalogue.
 */
export const RUN_COMMANDS = ["pause", "resume", "skip", "redo", "start", "retry", "stop"] as const;
export const RunCommandType = z.enum(RUN_COMMANDS);
export type RunCommandType = z.infer<typeof RunCommandType>;

export const RUN_COMMAND_PHASES = ["received", "applied", "refused"] as const;

export const RunCommandData = z.strictObject({
  /** Unique per command; the `received`, `applied` and `refused` records of one command share it. */
  commandId: z.string().min(1),
  command: RunCommandType,
  /** The codon a `start` or `skip` names (runtime id), or the one the command acted on. */
  codonId: z.string().optional(),
  /** Who sent it: `api`, `cli`, `server:<clientId>`, `tui`... */
  source: z.string(),
  phase: z.enum(RUN_COMMAND_PHASES),
  /** What happened, in one sentence (why it was refused, what it did). */
  message: z.string(),
});
export type RunCommandData = z.infer<typeof RunCommandData>;
