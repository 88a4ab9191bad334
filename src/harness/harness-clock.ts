/**
 * Time as the scripted and command harnesses use it: the current time, and timers for `@sleep`, idle
 * and kill-grace deadlines. Injected, so tests drive it by hand; the runtime passes its own clock.
 * Handles are opaque: whatever `setTimeout` returned goes back to `clearTimeout`.
 */
export interface HarnessClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
