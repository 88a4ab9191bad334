import { z } from "zod";
import { ROLLBACK_CHECKPOINT_TYPES } from "../events/checkpoints.ts";

/**
 * The client side of the WebSocket protocol: what a client may send, in the reference runtime's names
 * and shapes, so that clients written for it work unchanged. One JSON object per text frame.
 *
 * - The handshake (no `id`): `{type: "handshake", data: {mode, sendPreviousEvents?, batchEvents?}}`.
 * - A command: `{id, type, data?}`. `id` is required and never echoed: results are ordinary events.
 */

export const CLIENT_MODES = ["readonly", "readandwrite"] as const;
export type ClientMode = (typeof CLIENT_MODES)[number];

export const HandshakeMessage = z.object({
  type: z.literal("handshake"),
  data: z.object({
    mode: z.enum(CLIENT_MODES),
    sendPreviousEvents: z.boolean().optional(),
    /** Our addition: live events arrive in `event.batch` frames, those of one write interval together. */
    batchEvents: z.boolean().optional(),
  }),
});
export type HandshakeMessage = z.infer<typeof HandshakeMessage>;

const Reason = z.object({ reason: z.string().optional() });
const AutoRestart = z.object({ autoRestart: z.boolean().default(false) });

function command<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({ id: z.string().min(1), type: z.literal(type), data });
}

/**
 * The commands; `data` may be absent when all its fields are optional (it parses as `{}`). Additions,
 * ignored by reference clients: `codon.skip {codonId?}` names the codon to skip, `history.sync
 * {afterSeq?}` streams only the events after that seq (a reconnecting client), and `history.page
 * {beforeSeq?, limit?}` answers one `history.page` frame: the newest events with the run view just
 * before them, or an older page (history paging: a long run shown without its whole journal).
 */
export const CommandMessage = z.discriminatedUnion("type", [
  command("codon.start", z.object({ codonId: z.string().min(1), skipPreCommands: z.boolean().optional() })),
  command("codon.next", z.object({}).prefault({})),
  command("codon.skip", z.object({ codonId: z.string().min(1).optional() }).prefault({})),
  command("codon.redo", z.object({}).prefault({})),
  command("codon.forceStop", Reason.prefault({})),
  command("server.shutdown", Reason.prefault({})),
  command("server.force_shutdown", Reason.prefault({})),
  command("checkpoint.list", z.object({ runId: z.string().optional() }).prefault({})),
  command(
    "rollback.toCheckpoint",
    z.object({ checkpointSha: z.string().min(1), autoRestart: z.boolean().default(false) }),
  ),
  command(
    "rollback.toCodon",
    z.object({
      codonId: z.string().min(1),
      checkpointType: z.enum(ROLLBACK_CHECKPOINT_TYPES),
      autoRestart: z.boolean().default(false),
    }),
  ),
  command("rollback.toLastSuccess", AutoRestart.prefault({})),
  command("ping", z.object({}).prefault({})),
  command("ping.broadcast", z.object({}).prefault({})),
  command(
    "history.sync",
    z
      .object({
        afterSeq: z.int().nonnegative().optional(),
        /** Our addition: up to this many events per `history.batch` (default 1, as the reference). */
        batchSize: z.int().min(1).max(1000).optional(),
      })
      .prefault({}),
  ),
  command(
    "history.page",
    z
      .object({
        /** Absent: the newest page, with the run view just before it. Else the events before this seq. */
        beforeSeq: z.int().positive().optional(),
        /** Events of an older page (default 500, at most 1000). */
        limit: z.int().min(1).max(1000).optional(),
      })
      .prefault({}),
  ),
]);
export type CommandMessage = z.infer<typeof CommandMessage>;
export type CommandType = CommandMessage["type"];
export type CommandOf<T extends CommandType> = Extract<CommandMessage, { type: T }>;

export const COMMAND_TYPES: readonly CommandType[] = CommandMessage.options.map(
  (option) => option.shape.type.value,
);

/**
 * Commands every client may send whatever its mode, and during a rollback: queries and the connection's
 * own business. `ping.broadcast` is not one of them (it reaches every client), as in the reference.
 */
const QUERIES: ReadonlySet<CommandType> = new Set([
  "checkpoint.list",
  "ping",
  "history.sync",
  "history.page",
]);

/**
 * Shutdown is allowed during a rollback (the reference exempts it from every gate) but, unlike in the
 * reference, not to read-only clients: a client that asked only to watch must not end the run.
 */
const SHUTDOWNS: ReadonlySet<CommandType> = new Set(["server.shutdown", "server.force_shutdown"]);

export function isQuery(type: CommandType): boolean {
  return QUERIES.has(type);
}

export function isShutdown(type: CommandType): boolean {
  return SHUTDOWNS.has(type);
}

/** Refusal codes, as the reference names them. */
export const REFUSAL_CODES = {
  rollback: "ROLLBACK_IN_PROGRESS",
  readonly: "INSUFFICIENT_PERMISSIONS",
} as const;

/** Messages clients match on, word for word as the reference sends them. */
export const MESSAGES = {
  handshakeRequired: "Handshake required before sending commands",
  invalidCommand: "Invalid command format",
  commandFailed: (detail: string) => `Command execution failed: ${detail}`,
  rollingBack: "Cannot execute state-modifying commands while rollback is in progress",
  readOnly: "Cannot execute state-modifying commands in read-only mode",
  attempted: (type: string) => `Attempted command: ${type}`,
  noCodonRunning: "No codon is currently running",
  noMoreCodons: "No more codons to run",
  rollbackInProgress: "Rollback already in progress",
  shuttingDown: "Shutting down: waiting for agent process to exit. Send server.force_shutdown to force quit.",
  pong: "pong",
} as const;

/** The reasons whose shutdown exits 0 (SIGHUP: a closed terminal); any other exits 1, as in the reference. */
export const CLEAN_SHUTDOWN_REASONS: ReadonlySet<string> = new Set([
  "client request",
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
]);
export const DEFAULT_SHUTDOWN_REASON = "client request";
