import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { systemErrorOf } from "./fs-fault.ts";

/**
 * `mkdirSync(dir, { recursive: true })` whose failure names its real cause:
 * - Node's recursive mkdir reports ENOENT when a missing parent cannot be created (a read-only file
 *   system, a permission); then the first missing directory is made alone, which fails with the real
 *   code (EROFS, EACCES...) naming that directory. Should it succeed (another process made the parent
 *   meanwhile), the whole path is made again.
 * - It reports EEXIST when a file (not a directory) is where `dir` belongs: that is ENOTDIR, "a file
 *   is where a directory was expected", naming `dir`.
 */
export function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = systemErrorOf(error)?.code;
    if (code === "EEXIST") throw fileInTheWay(dir);
    if (code !== "ENOENT") throw error;
    mkdirSync(firstMissing(dir));
    mkdirSync(dir, { recursive: true });
  }
}

function fileInTheWay(dir: string): Error {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), {
    code: "ENOTDIR",
    syscall: "mkdir",
    path: dir,
  });
}

/** The outermost directory of `dir`'s path that does not exist (`dir` itself when its parent does). */
function firstMissing(dir: string): string {
  let missing = dir;
  for (let parent = dirname(missing); parent !== missing && !existsSync(parent); parent = dirname(parent)) {
    missing = parent;
  }
  return missing;
}
