import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreRule, isIgnored, parseGitignore } from "../../util/gitignore-rules.ts";

/** Used when the hank directory has no `.gitignore` of its own. */
export const DEFAULT_COPY_IGNORES: readonly string[] = ["node_modules/", "dist/", "*.log"];

export interface CopyExclusions {
  /** Where the rules came from, for the report of excluded entries. */
  readonly source: ".gitignore" | "built-in defaults";
  /** `hankPath` is relative to the hank directory, `/`-separated. */
  excludes(hankPath: string, isDirectory: boolean): boolean;
}

/**
 * What a rig copy leaves out of a copied tree: the rules of the hank root `.gitignore` (a regular
 * file; nested `.gitignore` files are copied, not applied), or DEFAULT_COPY_IGNORES when there is
 * none. A `.git` directory or file is always left out, as git itself never tracks it and a copied
 * one would turn part of agentRoot into a separate repository. Throws when `.gitignore` exists but
 * cannot be read; the copy operation reports that as its failure.
 */
export function loadCopyExclusions(hankDir: string): CopyExclusions {
  const gitignore = join(hankDir, ".gitignore");
  const own = isRegularFile(gitignore);
  const rules: readonly IgnoreRule[] = own
    ? parseGitignore(readFileSync(gitignore, "utf8"))
    : parseGitignore(DEFAULT_COPY_IGNORES.join("\n"));
  return {
    source: own ? ".gitignore" : "built-in defaults",
    excludes: (hankPath, isDirectory) =>
      hankPath.split("/").at(-1) === ".git" || isIgnored(rules, hankPath, isDirectory),
  };
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
