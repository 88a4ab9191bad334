import { isAbsolute, relative } from "node:path";

/**
 * A path as the user should read it: relative to the cwd when it lies inside, absolute otherwise.
 * Anything that is not an absolute path (`-`, a URL) is shown as it is.
 */
export function displayPath(absolutePath: string, cwd: string): string {
  if (!isAbsolute(absolutePath)) return absolutePath;
  const inside = relative(cwd, absolutePath);
  if (inside === "") return ".";
  return inside.startsWith("..") || isAbsolute(inside) ? absolutePath : inside;
}
