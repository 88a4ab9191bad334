/** A classified failure (reference 1.12). `retriable` decides whether `onFailure: retry` may try again. */
export type FailureType = "timeout" | "rate-limit" | "api-error" | "sentinel-load-failure" | "unknown";

export interface FailureReason {
  readonly type: FailureType;
  readonly retriable: boolean;
  readonly message: string;
  /** A provider's Retry-After hint; when present it replaces the computed backoff. */
  readonly retryAfterMs?: number;
}
