import { walkDataSource } from "./data-hash.ts";
import type { DataEntry } from "./data-signature.ts";

/**
 * Detecting changes to the read-only data source during a run. Agents are told the data is read-only,
 * but the link points at the user's own files: a change must not go unnoticed. The watch walks the data
 * source (names and `lstat` only, no content) before the first codon and after each one, and compares.
 * A file counts as modified when its size, mtime or ctime moved: the ctime moves on every write and
 * chmod and cannot be set back, so even an edit that restores the mtime shows.
 */
export interface DataSourceChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly modified: readonly string[];
}

/** What differs between two walks of the same data source; empty lists when nothing does. Pure. */
export function compareDataWalks(
  before: readonly DataEntry[],
  after: readonly DataEntry[],
): DataSourceChange {
  const old = new Map(before.map((entry) => [entry.path, entry]));
  const added: string[] = [];
  const modified: string[] = [];
  for (const entry of after) {
    const previous = old.get(entry.path);
    old.delete(entry.path);
    if (previous === undefined) added.push(entry.path);
    else if (fingerprint(previous) !== fingerprint(entry)) modified.push(entry.path);
  }
  return { added, removed: [...old.keys()], modified };
}

export function isDataSourceChanged(change: DataSourceChange): boolean {
  return change.added.length + change.removed.length + change.modified.length > 0;
}

function fingerprint(entry: DataEntry): string {
  switch (entry.kind) {
    case "file":
      return `file ${entry.size} ${entry.mtimeMs} ${entry.ctimeMs ?? ""}`;
    case "symlink":
      return `symlink ${entry.target}`;
    default:
      return entry.kind;
  }
}

/** One line: what changed (the first few paths of each kind), where, and during which codons. */
export function describeDataSourceChange(change: DataSourceChange, dataPath: string, during: string): string {
  const parts = (
    [
      ["modified", change.modified],
      ["added", change.added],
      ["removed", change.removed],
    ] as const
  )
    .filter(([, paths]) => paths.length > 0)
    .map(([what, paths]) => `${paths.length} ${what} (${listed(paths)})`);
  return `The read-only data source ${dataPath} changed during ${during}: ${parts.join(", ")}. Agents must not write there; check the data, and restore it from your own copy if the change was not intended.`;
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).map((path) => (path === "." ? "the file itself" : path));
  return paths.length > 3 ? `${shown.join(", ")}, ...` : shown.join(", ");
}

export type DataWatchResult =
  | { readonly kind: "unchanged" }
  | { readonly kind: "changed"; readonly change: DataSourceChange }
  | { readonly kind: "unreadable"; readonly message: string };

/**
 * The walks of one run. `baseline` takes the reference; each `check` walks again, compares, and makes
 * the new walk the reference, so a change is reported once. A walk costs one `lstat` per entry (about
 * 10 ms per thousand files), paid after every codon; it is synchronous (see `walkDataSource`).
 */
export class DataSourceWatch {
  #reference: DataEntry[] | undefined;

  constructor(readonly dataPath: string) {}

  baseline(): DataWatchResult {
    const walked = walkDataSource(this.dataPath);
    if (!walked.ok) return { kind: "unreadable", message: walked.message };
    this.#reference = walked.entries;
    return { kind: "unchanged" };
  }

  check(): DataWatchResult {
    if (this.#reference === undefined) return this.baseline();
    const walked = walkDataSource(this.dataPath);
    if (!walked.ok) return { kind: "unreadable", message: walked.message };
    const change = compareDataWalks(this.#reference, walked.entries);
    this.#reference = walked.entries;
    return isDataSourceChanged(change) ? { kind: "changed", change } : { kind: "unchanged" };
  }
}
