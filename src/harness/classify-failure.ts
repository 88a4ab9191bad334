import { bedrockRemedy } from "./bedrock-remedy.ts";
import type { FailureReason, FailureType } from "./failure-reason.ts";
import { parseRetryAfterMs, sanitizeRetryAfterMs } from "./retry-after.ts";

/**
 * The shared failure classifier (reference 1.15): decides whether a failed agent session may be retried.
 * Every harness adapter uses it, structured fields first (`classifyStructured`), text second
 * (`classifyFailureText`). Pure: the verdict depends only on the arguments.
 *
 * Policy: permanent verdicts are reserved for failures a retry cannot fix (billing, credentials, a
 * malformed request); unknown text after a session was established is retriable, because a wrong
 * "retriable" costs one bounded attempt while a wrong "permanent" ends the run.
 */

/** Failure fields an adapter may have from an SDK or an HTTP response. */
export interface StructuredFailure {
  /** HTTP status of the provider response. */
  readonly status?: number;
  /** The provider's error type (`rate_limit_error`, `insufficient_quota`, ...). */
  readonly errorType?: string;
  readonly message: string;
  /** A Retry-After value the adapter already read from headers; beats a hint found in the text. */
  readonly retryAfterMs?: number;
}

/** One verdict kind, with the message prefix users see. */
interface Verdict {
  readonly type: FailureType;
  readonly retriable: boolean;
  readonly prefix: string;
}

const RATE_LIMIT: Verdict = { type: "rate-limit", retriable: true, prefix: "API rate limit: " };
const BILLING: Verdict = { type: "api-error", retriable: false, prefix: "API billing/usage error: " };
const AUTH: Verdict = { type: "api-error", retriable: false, prefix: "API auth error: " };
const INVALID: Verdict = { type: "api-error", retriable: false, prefix: "API invalid request: " };
const TIMEOUT: Verdict = { type: "timeout", retriable: true, prefix: "" };
const TRANSPORT: Verdict = { type: "api-error", retriable: true, prefix: "API transport error: " };
const SERVER: Verdict = { type: "api-error", retriable: true, prefix: "API server error: " };
const UNKNOWN: Verdict = { type: "api-error", retriable: true, prefix: "API error in result: " };
const LOCAL: Verdict = {
  type: "api-error",
  retriable: false,
  prefix: "Local setup/process error (no session established): ",
};

const DURATION_UNIT = String.raw`\s*(?:ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b`;

/**
 * An HTTP status code as a word of its own: not inside a larger number (`1500ms`, `1,500`, `4.003`) and
 * not a duration (`500 ms`, `400 seconds`).
 */
function hasStatusCode(lower: string, code: number): boolean {
  return new RegExp(String.raw`(?<![\d.,])\b${code}\b(?![.,]\d)(?!${DURATION_UNIT})`).test(lower);
}

const includesAny = (lower: string, words: readonly string[]): boolean =>
  words.some((w) => lower.includes(w));

const hasRateLimitWords = (l: string): boolean => includesAny(l, ["rate limit", "rate_limit", "rate-limit"]);

const isBilling = (l: string): boolean =>
  includesAny(l, ["credit", "billing", "insufficient", "quota", "available balance", "out of budget"]) ||
  /usage ?limit/.test(l);

const isTimeout = (l: string): boolean => l.includes("timeout") || l.includes("timed out");

const isAuth = (l: string): boolean =>
  hasStatusCode(l, 401) ||
  hasStatusCode(l, 403) ||
  includesAny(l, ["authentication", "unauthorized", "forbidden", "api key", "api_key", "api-key", "oauth"]);

const isInvalidRequest = (l: string): boolean =>
  includesAny(l, [
    "invalid_request",
    "invalid request",
    "validationexception",
    "validation error:",
    "prompt is too long",
  ]) || hasStatusCode(l, 400);

const TRANSPORT_WORDS = [
  "socket",
  "econnreset",
  "econnrefused",
  "econnaborted",
  "epipe",
  "etimedout",
  "enotfound",
  "eai_again",
  "unable to connect",
  "fetch failed",
  "connection reset",
  "connection closed",
  "connection error",
  "network",
];
const isTransport = (l: string): boolean =>
  includesAny(l, TRANSPORT_WORDS) || (l.includes("stream") && l.includes("terminated"));

const isServerError = (l: string): boolean =>
  [500, 502, 503, 504, 529].some((code) => hasStatusCode(l, code)) ||
  includesAny(l, ["overloaded", "internal server error", "bad gateway", "service unavailable"]);

function reason(verdict: Verdict, text: string, retryAfterMs: number | undefined): FailureReason {
  const base = { type: verdict.type, retriable: verdict.retriable, message: `${verdict.prefix}${text}` };
  // Only a retry can use the hint, so permanent verdicts never carry one.
  return verdict.retriable && retryAfterMs !== undefined ? { ...base, retryAfterMs } : base;
}

function bedrockReason(lower: string, text: string): FailureReason | undefined {
  const remedy = bedrockRemedy(lower);
  if (remedy === undefined) return undefined;
  return { type: "api-error", retriable: false, message: `Bedrock auth/access error: ${text} — ${remedy}` };
}

/** The ordered text rules; `retryAfterMs` is the hint to attach to a retriable verdict. */
function classifyText(
  text: string,
  sessionEstablished: boolean,
  retryAfterMs: number | undefined,
): FailureReason {
  const l = text.toLowerCase();
  // 1. Rate-limit words beat the quota words of rule 2: a rate_limit_error mentioning a quota is transient.
  if (hasRateLimitWords(l)) return reason(RATE_LIMIT, text, retryAfterMs);
  if (isBilling(l)) return reason(BILLING, text, undefined);
  // 3. Before the timeout rule: AWS signature errors dump request headers that may contain "timeout".
  const bedrock = bedrockReason(l, text);
  if (bedrock !== undefined) return bedrock;
  // 4. Before the status codes: "timed out after 400 seconds" is a timeout, not a 400.
  if (isTimeout(l)) return reason(TIMEOUT, text, retryAfterMs);
  if (isAuth(l)) return reason(AUTH, text, undefined);
  if (isInvalidRequest(l)) return reason(INVALID, text, undefined);
  // 7. A bare 429 only now: some providers answer 429 for an exhausted quota, which rule 2 caught.
  if (hasStatusCode(l, 429)) return reason(RATE_LIMIT, text, retryAfterMs);
  // 8 and 9 are explicit so that they stay retriable even when no session was established.
  if (isTransport(l)) return reason(TRANSPORT, text, retryAfterMs);
  if (isServerError(l)) return reason(SERVER, text, retryAfterMs);
  return sessionEstablished ? reason(UNKNOWN, text, retryAfterMs) : reason(LOCAL, text, undefined);
}

const orUnknown = (text: string): string => (text.trim() === "" ? "Unknown error" : text);

/** Classifies failure text by the ordered rules of reference 1.15; the first matching rule decides. */
export function classifyFailureText(text: string, sessionEstablished: boolean): FailureReason {
  const body = orUnknown(text);
  return classifyText(body, sessionEstablished, parseRetryAfterMs(body));
}

/** The text a structured failure reads as: status and type first, when the message does not repeat them. */
function describe(input: StructuredFailure): string {
  const message = input.message.trim();
  const head = [input.status, input.errorType]
    .filter((part) => part !== undefined && part !== "" && !message.includes(String(part)))
    .join(" ");
  if (head === "") return orUnknown(message);
  return message === "" ? head : `${head}: ${message}`;
}

/** Verdicts from fields alone; undefined leaves the decision to the text rules. */
function verdictFromFields(input: StructuredFailure, lower: string): Verdict | undefined {
  const { status } = input;
  if (status === 429) return isBilling(lower) && !hasRateLimitWords(lower) ? BILLING : RATE_LIMIT;
  if (status === 529 || (status !== undefined && status >= 500 && status <= 599)) return SERVER;
  if (status === 408) return TIMEOUT;
  if (status === 400 || status === 413) return INVALID;
  const type = input.errorType?.toLowerCase();
  if (type === "permission_error" || type === "authentication_error") return AUTH;
  if (type === "request_too_large" || type === "context_length_exceeded") return INVALID;
  return undefined;
}

/**
 * Classifies a failure that came with structured fields: the status code and error type decide first,
 * the text rules decide the rest. A 401/403 still gets the Bedrock remedy when the text names one.
 */
export function classifyStructured(input: StructuredFailure, sessionEstablished: boolean): FailureReason {
  const text = describe(input);
  const lower = text.toLowerCase();
  const retryAfterMs = sanitizeRetryAfterMs(input.retryAfterMs) ?? parseRetryAfterMs(text);
  if (input.status === 401 || input.status === 403) {
    return bedrockReason(lower, text) ?? reason(AUTH, text, undefined);
  }
  const verdict = verdictFromFields(input, lower);
  return verdict === undefined
    ? classifyText(text, sessionEstablished, retryAfterMs)
    : reason(verdict, text, retryAfterMs);
}

const CONTEXT_OVERFLOW = [
  "prompt is too long",
  "context_length_exceeded",
  "context length exceeded",
  "maximum context length",
  "exceeds the context window",
  "context window exceeded",
  "input is too long",
];

/**
 * Whether a provider error means the context window overflowed. Adapters check this before
 * classifying, and end the session as `context-exceeded` rather than `failed`: in a contextExceeded
 * loop the overflow is the stop signal, and elsewhere the engine decides what it means.
 */
export function isContextOverflow(input: string | StructuredFailure): boolean {
  const text = typeof input === "string" ? input : `${input.errorType ?? ""} ${input.message}`;
  return includesAny(text.toLowerCase(), CONTEXT_OVERFLOW);
}

/**
 * The reason for an agent process that ended without a result message. Retriable once a session was
 * established (the crash is plausibly transient); permanent before that (a local setup problem).
 * Not for a force-stop or a context overflow: those outcomes belong to other mechanisms.
 */
export function exitWithoutResult(
  exitCode: number | null,
  sessionEstablished: boolean,
  signal?: string,
): FailureReason {
  const how =
    exitCode !== null ? `exit code ${exitCode}` : signal !== undefined ? `signal ${signal}` : "no exit code";
  return sessionEstablished
    ? {
        type: "api-error",
        retriable: true,
        message: `Codon process exited without a result message (${how})`,
      }
    : {
        type: "api-error",
        retriable: false,
        message: `Codon process exited before establishing a session (${how})`,
      };
}
