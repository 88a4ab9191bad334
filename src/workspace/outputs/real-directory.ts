import { lstat, mkdir } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { fsErrorCode, fsErrorText } from "./fs-error-text.ts";

/**
 * Makes sure `relDir` (`/`-separated, relative to `root`; `.` or empty for the root itself) is a chain
 * of real directories, so that nothing written below it can land outside `root`: a symbolic link or a
 * file anywhere on the way is refused, never passed through. With `create`, missing directories are
 * made one by one. Returns null when the chain is sound, else why not. The root itself is trusted.
 */
export async function realDirectoryProblem(
  root: string,
  relDir: string,
  create: boolean,
): Promise<string | null> {
  let current = root;
  let shown = "";
  for (const part of relDir.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return `"${relDir}" leaves ${root}`;
    current = join(current, part);
    shown = shown === "" ? part : `${shown}/${part}`;
    const problem = await directoryStep(current, shown, create);
    if (problem !== null) return problem;
  }
  return null;
}

async function directoryStep(path: string, shown: string, create: boolean): Promise<string | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const stats = await lstat(path);
      if (stats.isSymbolicLink()) return `"${shown}" is a symbolic link; refusing to write through it`;
      return stats.isDirectory() ? null : `"${shown}" exists and is not a directory`;
    } catch (error) {
      if (fsErrorCode(error) !== "ENOENT") return fsErrorText(error);
      if (!create) return `"${shown}" does not exist`;
    }
    try {
      await mkdir(path);
      return null;
    } catch (error) {
      // EEXIST: something appeared in between; look at it again.
      if (fsErrorCode(error) !== "EEXIST") return fsErrorText(error);
    }
  }
  return `"${shown}" keeps changing`;
}

/** True when `path` is `root` or below it (lexically; links are the business of `realDirectoryProblem`). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
