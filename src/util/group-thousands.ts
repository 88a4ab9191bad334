/**
 * An integer with commas between groups of three digits, as `toLocaleString("en-US")` writes it,
 * without loading ICU's locale data: that costs about 25 ms at its first use, paid by every run's
 * summary line. Other numbers are left to `toLocaleString`.
 */
export function groupThousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? `-${grouped}` : grouped;
}
