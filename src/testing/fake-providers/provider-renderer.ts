import type { FakeHttpFault } from "./fake-types.ts";
import type { PlannedAnswer } from "./plan-answer.ts";

/** Identifiers of one response, derived from the request index so they are stable and unique per server. */
export interface ResponseIds {
  readonly requestIndex: number;
  readonly model: string;
  /** Epoch seconds for `created` fields. */
  readonly created: number;
}

export interface ErrorResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** A provider's wire format. */
export interface ProviderRenderer {
  /** SSE frames of a streamed answer, in order. */
  streamFrames(answer: PlannedAnswer, ids: ResponseIds): string[];
  /** The body of a non-streaming answer. */
  message(answer: PlannedAnswer, ids: ResponseIds): unknown;
  error(fault: FakeHttpFault): ErrorResponse;
}

/** `retry-after` (seconds) as a header, when the fault names one. */
export function retryAfterHeaders(fault: FakeHttpFault): Record<string, string> {
  if (fault.type === "rate-limit" && fault.retryAfterSeconds !== undefined) {
    return { "retry-after": String(fault.retryAfterSeconds) };
  }
  return fault.type === "http-error" ? { ...fault.headers } : {};
}
