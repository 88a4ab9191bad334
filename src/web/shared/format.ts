/** Short, stable renderings of numbers for people. */

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

export function formatUsd(usd: number): string {
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** `a / b`, with `∞` for an unbounded limit (0 or absent). */
export function ofLimit(used: string, limit: number | undefined, format: (n: number) => string): string {
  return `${used} / ${limit === undefined || limit === 0 ? "∞" : format(limit)}`;
}
