import type { JournaledEvent } from "../journal/index.ts";
import { errorData, type UnjournaledType } from "./frames.ts";
import { MESSAGES } from "./protocol.ts";

/** Something the server tells every client without journaling it. */
export interface Notice {
  readonly type: Extract<UnjournaledType, "error" | "info" | "checkpoint.list" | "pong">;
  readonly data: unknown;
}

/**
 * Follows the run commands the server sent on clients' behalf. The run journals each one as
 * `run.command` (received, then applied or refused, read at a codon boundary); when the run refuses
 * one, clients also hear the reference's `error {message, context, severity: "operation", fatal: false}`
 * naming the command they sent (`codon.skip`, not the inbox's `skip`).
 */
export class RunCommandTracker {
  readonly #pending = new Map<string, string>();
  readonly #tell: (notice: Notice) => void;

  constructor(tell: (notice: Notice) => void) {
    this.#tell = tell;
  }

  track(commandId: string, protocolType: string): void {
    this.#pending.set(commandId, protocolType);
  }

  observe(event: JournaledEvent): void {
    if (event.type !== "run.command" || event.data.phase === "received") return;
    const protocolType = this.#pending.get(event.data.commandId);
    if (protocolType === undefined) return;
    this.#pending.delete(event.data.commandId);
    if (event.data.phase !== "refused") return;
    const { message, codonId } = event.data;
    this.#tell({
      type: "error",
      data: errorData(message, {
        context: MESSAGES.attempted(protocolType),
        severity: "operation",
        ...(codonId !== undefined && { codon: codonId }),
      }),
    });
  }
}
