import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * pi keeps one JSONL file per session in the session directory, named `<ISO time>_<sessionId>.jsonl`.
 * The session id the harness reports is pi's, so resuming needs no table of our own: the file is found
 * by its name, also after the runtime restarted.
 */
export function findSessionFile(sessionDir: string, sessionId: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(sessionDir);
  } catch {
    return undefined;
  }
  const suffix = `_${sessionId}.jsonl`;
  const name = names.filter((n) => n.endsWith(suffix)).sort();
  const last = name.at(-1);
  return last === undefined ? undefined : join(sessionDir, last);
}
