import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * Whether a program is found as spawning it finds it on POSIX: an executable regular file named `name`
 * in a directory of `pathEnv` (a `PATH` value), or at `name` itself when it holds a `/`.
 */
export function onPath(name: string, pathEnv: string | undefined): boolean {
  if (name.includes("/")) return isExecutable(name);
  const dirs = (pathEnv ?? "").split(delimiter).filter((dir) => dir !== "");
  return dirs.some((dir) => isExecutable(join(dir, name)));
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
