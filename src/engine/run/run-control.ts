import type { RunCommandType } from "../../events/index.ts";

/** A command to a live run. `codonId` names the codon of a `start` (required) or a `skip` (optional). */
export interface RunCommand {
  readonly type: RunCommandType;
  readonly codonId?: string;
  /** Who sent it, for the journal: `api` (default), `cli`, `tui`, `server:<clientId>`... */
  readonly source?: string;
}

/** A command as the run reads it from the inbox, with the id its journal records carry. */
export interface InboxCommand extends RunCommand {
  readonly commandId: string;
  readonly source: string;
}

/**
 * The inbox of a live run. Faces `send` commands at any time; the engine reads them at codon
 * boundaries, in the order they arrived, and journals each one twice: when it is received and when it
 * is applied or refused. Nothing here decides what a command means: the engine does, at a boundary.
 *
 * A run parks (pause, or a retriable failure under `onFailure: abort`) only while a client that can
 * answer it is attached (`attachClient`); with nobody attached a parked failure ends the run as a
 * headless run does, so an unattended run never waits forever.
 */
export class RunControl {
  readonly #queue: InboxCommand[] = [];
  readonly #newId: () => string;
  #wake: (() => void) | undefined;
  #onReceived: ((command: InboxCommand) => void) | undefined;
  #clients = 0;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  /** Queues a command and returns its id. Commands sent before the run starts wait for it. */
  send(command: RunCommand): string {
    const queued: InboxCommand = { ...command, source: command.source ?? "api", commandId: this.#newId() };
    this.#queue.push(queued);
    this.#onReceived?.(queued);
    this.#wake?.();
    return queued.commandId;
  }

  /** Marks a client as able to answer a parked run; call the returned function when it leaves. */
  attachClient(): () => void {
    this.#clients += 1;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.#clients -= 1;
      this.#wake?.();
    };
  }

  get hasClient(): boolean {
    return this.#clients > 0;
  }

  /** Engine side: reports every received command (those already queued at once). One receiver. */
  connect(onReceived: (command: InboxCommand) => void): void {
    this.#onReceived = onReceived;
    for (const command of this.#queue) onReceived(command);
  }

  /** Engine side: the oldest unread command, removed from the inbox. */
  take(): InboxCommand | undefined {
    return this.#queue.shift();
  }

  /**
   * Engine side: resolves when a command arrives, the last client leaves, or `signal` aborts; at once
   * when a command is already waiting.
   */
  waitForChange(signal: AbortSignal): Promise<void> {
    if (this.#queue.length > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.#wake = undefined;
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#wake = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
