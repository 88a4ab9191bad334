/**
 * Known secret values, masked in everything the journal writes: what the journal holds, what the
 * state snapshot folds from it and what is broadcast (the writer returns the masked event) carry
 * `****` where a known value was. By value, wherever it appears (a command line an agent echoed, a tool
 * result, an error message), whatever the variable it came from; which values are known is the
 * caller's decision (the runner's: see known-secrets.ts). Longer values are replaced first, so a value
 * that contains another is masked whole.
 */
export interface SecretMask {
  /** The text with every known value replaced by `MASKED`. */
  text(value: string): string;
  /** A copy of `data` with every string in it masked; `data` itself when nothing changed. */
  data<T>(data: T): T;
}

export const MASKED = "****";

export function createSecretMask(values: Iterable<string>): SecretMask {
  const known = [...new Set(values)].filter((value) => value !== "").sort((a, b) => b.length - a.length);
  const text = (value: string): string => {
    let out = value;
    for (const secret of known) if (out.includes(secret)) out = out.replaceAll(secret, MASKED);
    return out;
  };
  // Most events hold no secret: one look at their JSON (where a value appears JSON-escaped) lets them
  // through untouched; only an event that holds one is walked and copied.
  const escaped = known.map((secret) => JSON.stringify(secret).slice(1, -1));
  const holdsOne = (value: unknown): boolean => {
    const json = JSON.stringify(value) ?? "";
    return escaped.some((secret) => json.includes(secret));
  };
  const data = <T>(value: T): T =>
    known.length === 0 || !holdsOne(value) ? value : (maskDeep(value, text) as T);
  return { text, data };
}

function maskDeep(value: unknown, text: (value: string) => string): unknown {
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => maskDeep(item, text));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const masked = maskDeep(item, text);
    if (masked !== item) changed = true;
    return [key, masked] as const;
  });
  return changed ? Object.fromEntries(entries) : value;
}
