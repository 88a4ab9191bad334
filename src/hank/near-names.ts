import fs from "node:fs";
import { distance } from "fastest-levenshtein";

/**
 * Entries of `directory` a hank path may have meant: `.json` files and directories whose names are
 * within a typo of `name` (1 edit up to 4 characters, 2 beyond), at most three, sorted.
 */
export function nearNames(directory: string, name: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const reach = name.length <= 4 ? 1 : 2;
  return entries
    .filter((entry) => entry.isDirectory() || entry.name.toLowerCase().endsWith(".json"))
    .map((entry) => entry.name)
    .filter(
      (candidate) => candidate !== name && distance(candidate.toLowerCase(), name.toLowerCase()) <= reach,
    )
    .sort()
    .slice(0, 3);
}
