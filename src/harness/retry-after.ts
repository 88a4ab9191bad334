/**
 * Reads a provider's "retry after" hint out of error text (reference 1.15).
 *
 * Recognized shapes: header or JSON fields (`retry-after: 30`, `"retry_after": 30`, `retryAfterMs: 500`),
 * and worded forms (`retry after 60s`, `try again in 2 minutes`, `wait 500ms`). A bare field value is
 * seconds (HTTP delay-seconds); a unit word after the number decides otherwise. HTTP dates are not read:
 * that needs a clock, and a wrong guess is worse than the computed backoff.
 */

/** Hints longer than this are ignored (not clamped): such a window will not pass within a retry budget. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** A number that is a whole token: not the head of `1,000`, `07:30`, `2026-07-30` or `1.5.2`. */
const NUMBER = String.raw`(\d+(?:\.\d+)?)(?![\d.]|[,:/-]\d)`;

/** `retry-after: 30`, `retry_after": 30`, `retryafterms=500`, `retry after 60s` (same-line unit word). */
const FIELD_FORM = new RegExp(
  String.raw`retry[-_ ]?after([-_ ]?ms)?["'\s]*[:=]?["'\s]*${NUMBER}[ \t]*([a-z]+)?`,
);

/** `retry in 30s`, `try again in 2 minutes`, `please wait 500ms`: the unit is required here. */
const WORDED_FORM = new RegExp(
  String.raw`\b(?:retry|try again|wait)(?:\s+(?:in|for|after|about|around|approximately|another|at least))*\s+${NUMBER}[ \t]*([a-z]+)`,
);

/** Milliseconds per unit word, or undefined for a word that is not a time unit. */
function unitMs(word: string): number | undefined {
  if (/^(?:ms|msecs?|millis|milliseconds?)$/.test(word)) return 1;
  if (/^(?:s|secs?|seconds?)$/.test(word)) return 1000;
  if (/^(?:m|mins?|minutes?)$/.test(word)) return 60_000;
  if (/^(?:h|hrs?|hours?)$/.test(word)) return 3_600_000;
  return undefined;
}

function fromFieldForm(lower: string): number | undefined {
  const match = FIELD_FORM.exec(lower);
  if (!match?.[2]) return undefined;
  const [, msKey, digits, word] = match;
  if (msKey !== undefined) return Number(digits);
  // A word that is not a unit ("30 centiseconds") makes the value unreadable: no hint rather than a guess.
  const scale = word === undefined ? 1000 : unitMs(word);
  return scale === undefined ? undefined : Number(digits) * scale;
}

function fromWordedForm(lower: string): number | undefined {
  const match = WORDED_FORM.exec(lower);
  if (!match?.[1] || !match[2]) return undefined;
  const scale = unitMs(match[2]);
  return scale === undefined ? undefined : Number(match[1]) * scale;
}

/** The hinted wait in whole milliseconds, or undefined when the text carries no plausible hint. */
export function parseRetryAfterMs(text: string): number | undefined {
  const lower = text.toLowerCase();
  const ms = fromFieldForm(lower) ?? fromWordedForm(lower);
  return sanitizeRetryAfterMs(ms);
}

/** Rounds a hint to whole milliseconds; drops negative, non-finite and implausibly long ones. */
export function sanitizeRetryAfterMs(ms: number | undefined): number | undefined {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > MAX_RETRY_AFTER_MS) return undefined;
  return Math.round(ms);
}
