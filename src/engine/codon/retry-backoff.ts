/**
 * The wait before a retry (reference 1.15): exponential from `delayMs`, capped at `maxDelayMs`. A provider's
 * Retry-After hint replaces the computed wait and is capped as well. No jitter: codons run one at a time,
 * so there is no herd to spread, and a deterministic wait keeps runs reproducible.
 */

export interface BackoffConfig {
  /** The first wait, in milliseconds. */
  readonly delayMs: number;
  /** The longest wait, in milliseconds. */
  readonly maxDelayMs: number;
}

/** The exponent stops growing here, so a large attempt index cannot overflow on the way to the cap. */
const MAX_EXPONENT = 30;

/**
 * Milliseconds to wait before the next attempt.
 * @param attemptIndex retries already made: 0 before the first retry.
 * @param retryAfterMs the provider's hint, already bounded by the classifier.
 */
export function backoffDelayMs(attemptIndex: number, config: BackoffConfig, retryAfterMs?: number): number {
  const cap = Math.max(0, config.maxDelayMs);
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), cap);
  const exponent = Math.min(Math.max(0, Math.floor(attemptIndex)), MAX_EXPONENT);
  return Math.min(Math.max(0, config.delayMs) * 2 ** exponent, cap);
}
