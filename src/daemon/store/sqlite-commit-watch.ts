import type Database from "libsql";

/** How often the daemon asks: a claim waits at most this long for the next pass. */
export const COMMIT_WATCH_MS = 50;

/**
 * Wake-ups for a daemon on SQLite, which has no LISTEN/NOTIFY: `PRAGMA data_version` moves when
 * another connection commits (another process: the CLI admitting a run or sending a command, a second
 * daemon), never on this connection's own commits. Asked every `everyMs` (answered from memory, about
 * 10 µs here), it calls `wake` once per change, so a run admitted by another process is claimed within
 * a poll instead of at the next tick. Returns the way to stop.
 */
export function watchCommits(
  raw: Database.Database,
  wake: () => void,
  everyMs = COMMIT_WATCH_MS,
): () => Promise<void> {
  const statement = raw.prepare("PRAGMA data_version");
  const version = (): unknown => (statement.get() as { data_version?: unknown } | undefined)?.data_version;
  let last = version();
  const timer = setInterval(() => {
    let now: unknown;
    try {
      now = version();
    } catch {
      return; // The store is closing; the caller stops the watch.
    }
    if (now === last) return;
    last = now;
    wake();
  }, everyMs);
  timer.unref();
  return async () => clearInterval(timer);
}
