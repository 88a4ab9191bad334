import { extname } from "node:path/posix";

/** How many renamed candidates are tried before a name conflict becomes a failure (reference 1.6). */
export const MAX_CONFLICT_RENAMES = 100;

/**
 * The name a file takes when its own name is taken: `name_<counter>_<unixSeconds>.ext`
 * (`report.md` → `report_1_1700000000.md`). Only the last extension is kept apart
 * (`a.tar.gz` → `a.tar_1_<ts>.gz`); a dotfile has none (`.env` → `.env_1_<ts>`).
 */
export function conflictName(fileName: string, counter: number, unixSeconds: number): string {
  const extension = extname(fileName);
  const stem = extension === "" ? fileName : fileName.slice(0, -extension.length);
  return `${stem}_${counter}_${unixSeconds}${extension}`;
}

/** Whole seconds since the epoch, as used in renamed names. */
export function unixSecondsOf(epochMs: number): number {
  return Math.floor(epochMs / 1000);
}
