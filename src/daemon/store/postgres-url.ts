/**
 * PostgreSQL connection URLs, apart from the store itself: the CLI reads them before it knows which
 * store to open, and must not load the PostgreSQL store (or what it imports) to do so.
 */

/** The URL without its password, for messages and `loops ls` (a secret is never printed). */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
    return parsed.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
