import type { RunControl } from "../runner/index.ts";

/**
 * The readandwrite clients, seen from the runs: while at least one is connected, the live run's
 * control has one client attached (so a retriable failure under `abort` parks it instead of failing
 * it), and so does every later run of the execution.
 */
export class WriterSeats {
  #count = 0;
  #control: RunControl | undefined;
  #release: (() => void) | undefined;

  /** A writer joins; returns its leave function (idempotent). */
  join(): () => void {
    this.#count += 1;
    if (this.#count === 1) this.#attach();
    let seated = true;
    return () => {
      if (!seated) return;
      seated = false;
      this.#count -= 1;
      if (this.#count === 0) this.#detach();
    };
  }

  /** The live run changed (a new run started, or none is live). */
  follow(control: RunControl | undefined): void {
    this.#detach();
    this.#control = control;
    if (this.#count > 0) this.#attach();
  }

  #attach(): void {
    this.#release ??= this.#control?.attachClient();
  }

  #detach(): void {
    this.#release?.();
    this.#release = undefined;
  }
}
