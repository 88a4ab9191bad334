import { randomBytes } from "node:crypto";

/**
 * Names inside the executions base directory. A new execution is `<timestamp>-<random>-<datahash8>`:
 * sortable by creation time, unique without coordination, and showing at a glance which data it ran on.
 */
export const STATE_BACKUP_PREFIX = ".hankweave.backup-";

/** UTC `YYYYMMDDTHHMMSSZ`: no separators that a filesystem or a shell would mind. */
export function compactTimestamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
}

export function newExecutionDirName(epochMs: number, randomSuffix: string, dataHash: string): string {
  return `${compactTimestamp(epochMs)}-${randomSuffix}-${dataHash.slice(0, 8)}`;
}

/** Where `--force` moves an existing `.hankweave/`; `attempt` > 1 disambiguates two backups in one second. */
export function stateBackupName(epochMs: number, attempt = 1): string {
  const base = `${STATE_BACKUP_PREFIX}${compactTimestamp(epochMs)}`;
  return attempt > 1 ? `${base}-${attempt}` : base;
}

/** Six lowercase base-36 characters from the system's random source. */
export function randomSuffix(): string {
  const bytes = randomBytes(6);
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join("");
}
