import { copyFile, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";

export interface CopyTreeOptions {
  /** The source's path relative to the hank directory, prefixed to entries for `exclude`. */
  readonly hankPath: string;
  readonly exclude: (hankPath: string, isDirectory: boolean) => boolean;
  readonly signal: AbortSignal;
}

export interface CopyTreeResult {
  /** Entries left out, hank-relative, directories with a trailing `/`, in walk order. */
  readonly excluded: readonly string[];
  readonly files: number;
  /** The signal fired; the copy stopped part way. */
  readonly aborted: boolean;
}

/**
 * Copies a directory tree of regular files and directories (file modes kept), depth-first in sorted
 * order, skipping excluded entries without descending into them. Anything else in the tree (a
 * symlink or FIFO that appeared after the source was checked) throws, as do I/O errors; the caller
 * turns both into the operation's failure.
 */
export async function copyTree(
  source: string,
  target: string,
  options: CopyTreeOptions,
): Promise<CopyTreeResult> {
  const excluded: string[] = [];
  let files = 0;
  const walk = async (inside: string): Promise<boolean> => {
    await mkdir(join(target, inside), { recursive: true });
    const entries = await readdir(join(source, inside), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (options.signal.aborted) return false;
      const child = inside === "" ? entry.name : `${inside}/${entry.name}`;
      const hankPath = `${options.hankPath}/${child}`;
      if (options.exclude(hankPath, entry.isDirectory())) {
        excluded.push(entry.isDirectory() ? `${hankPath}/` : hankPath);
      } else if (entry.isDirectory()) {
        if (!(await walk(child))) return false;
      } else if (entry.isFile()) {
        await copyFile(join(source, child), join(target, child));
        files++;
      } else {
        throw new Error(`"${hankPath}" is not a regular file or directory`);
      }
    }
    return true;
  };
  const finished = await walk("");
  return { excluded, files, aborted: !finished };
}
