/**
 * Time as the process wrapper and the rig runner see it: injected, so tests drive timers by hand and
 * never sleep. The engine's `Clock` and the scripted agent's clock both fit this shape.
 */
export interface ProcessClock {
  /** Milliseconds since the epoch (or any fixed origin; only differences are used). */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
