import type { RollbackTarget, RunCommand } from "../runner/index.ts";
import { errorData, type UnjournaledType } from "./frames.ts";
import type { HostPhase } from "./host-phase.ts";
import type { LiveExecution } from "./live-execution.ts";
import { type CommandMessage, type CommandOf, DEFAULT_SHUTDOWN_REASON, MESSAGES } from "./protocol.ts";

/** What a command needs besides the host: who sent it and how to answer that client alone. */
export interface CommandContext {
  readonly host: LiveExecution;
  readonly clientId: string;
  readonly reply: (type: UnjournaledType, data: unknown) => void;
  /** Streams the journal after `afterSeq` to the sender as `history.batch` frames. */
  readonly streamHistory: (afterSeq: number, batchSize: number) => Promise<void>;
  /** Answers one `history.page` frame to the sender (see `HistoryPages`). */
  readonly pageHistory: (beforeSeq: number | undefined, limit: number | undefined) => Promise<void>;
}

/**
 * Performs one command that passed the gates. Results are ordinary events: what the run does is
 * journaled and broadcast; a handler failure is an `error` told to every client, as in the reference.
 */
export async function dispatchCommand(command: CommandMessage, context: CommandContext): Promise<void> {
  const { host } = context;
  const source = `server:${context.clientId}`;
  switch (command.type) {
    case "codon.next":
      return codonNext(context, source);
    case "codon.skip":
      return steer(context, command, { type: "skip", source, ...optionalCodon(command.data.codonId) }, true);
    case "codon.start":
      return steer(context, command, { type: "start", source, codonId: command.data.codonId }, true);
    case "codon.redo":
      return steer(context, command, { type: "redo", source }, false);
    case "codon.forceStop":
      if (!host.cancelCodon(command.data.reason ?? `Stopped by client ${context.clientId}`)) {
        fail(context, command.type, MESSAGES.noCodonRunning);
      }
      return;
    case "server.shutdown":
      host.shutdown(command.data.reason ?? DEFAULT_SHUTDOWN_REASON);
      return;
    case "server.force_shutdown":
      host.forceShutdown(command.data.reason ?? DEFAULT_SHUTDOWN_REASON);
      return;
    case "checkpoint.list":
      return listCheckpoints(context, command.data.runId);
    case "rollback.toCheckpoint":
      return rollback(
        context,
        { kind: "checkpoint", sha: command.data.checkpointSha },
        command.data.autoRestart,
      );
    case "rollback.toCodon": {
      const { codonId, checkpointType, autoRestart } = command.data;
      return rollback(context, { kind: "codon", codonId, checkpointType }, autoRestart);
    }
    case "rollback.toLastSuccess":
      return rollback(context, { kind: "last-success" }, command.data.autoRestart);
    case "ping":
      context.reply("pong", { message: MESSAGES.pong, timestamp: now(context) });
      return;
    case "ping.broadcast":
      host.broadcast({
        type: "pong",
        data: { message: MESSAGES.pong, timestamp: now(context), clientId: context.clientId },
      });
      return;
    case "history.sync":
      return context.streamHistory(command.data.afterSeq ?? 0, command.data.batchSize ?? 1);
    case "history.page":
      return context.pageHistory(command.data.beforeSeq, command.data.limit);
  }
}

/** `codon.next`: let a waiting run go on (a parked failure is retried), or continue an ended one. */
function codonNext(context: CommandContext, source: string): void {
  const { host } = context;
  if (host.phase === "ended") {
    host.continueRun();
    return;
  }
  if (host.phase === "live" && host.status.parked !== undefined) {
    host.sendToRun({ type: "resume", source }, "codon.next");
    return;
  }
  const running = host.status.running?.id;
  fail(
    context,
    "codon.next",
    running === undefined
      ? "The run is not waiting for codon.next"
      : `Codon ${running} is running; codon.next continues a run that waits (server.idle)`,
    running,
  );
}

/**
 * A command for the run's inbox. Between runs, `continues` says whether it may start the next run
 * with the command waiting in its inbox (start, skip) or is refused (redo: nothing ran in that run).
 */
function steer(context: CommandContext, command: CommandMessage, run: RunCommand, continues: boolean): void {
  const { host } = context;
  const closing = host.runClosing;
  if (closing !== undefined) {
    void closing.then(() => steer(context, command, run, continues));
    return;
  }
  if (host.phase === "live") {
    host.sendToRun(run, command.type);
    return;
  }
  if (host.phase === "ended" && continues) {
    host.continueRun({ command: run, protocolType: command.type });
    return;
  }
  fail(context, command.type, NOT_LIVE[host.phase]);
}

/** Why a steering command finds no run to steer, by the host's phase. */
const NOT_LIVE: Readonly<Record<HostPhase, string>> = {
  waiting: "The run has not started yet",
  live: "The run takes no more commands",
  ended: "No run is live: continue with codon.next, or roll back first",
  "rolling-back": "A rollback is under way: steer the run it continues",
  closing: "The server is shutting down",
  closed: "The server is shutting down",
};

async function listCheckpoints(context: CommandContext, runId: string | undefined): Promise<void> {
  try {
    const data = await context.host.checkpoints(runId);
    context.host.broadcast({ type: "checkpoint.list", data });
  } catch (caught) {
    fail(context, "checkpoint.list", `The checkpoints could not be read: ${messageOf(caught)}`);
  }
}

async function rollback(
  context: CommandContext,
  target: RollbackTarget,
  autoRestart: boolean,
): Promise<void> {
  const refusal = context.host.rollbackRefusal();
  if (refusal !== undefined) {
    context.host.broadcast({ type: "error", data: errorData(refusal) });
    return;
  }
  await context.host.rollback(target, autoRestart, `server:${context.clientId}`);
}

function fail(
  context: CommandContext,
  type: CommandOf<CommandMessage["type"]>["type"],
  message: string,
  codon?: string,
) {
  context.host.broadcast({
    type: "error",
    data: errorData(message, {
      context: MESSAGES.attempted(type),
      severity: "operation",
      ...(codon !== undefined && { codon }),
    }),
  });
}

function optionalCodon(codonId: string | undefined): { codonId?: string } {
  return codonId === undefined ? {} : { codonId };
}

function now(context: CommandContext): string {
  return new Date(context.host.clock.now()).toISOString();
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
