import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type IgnoreRule, parseGitignore } from "../../util/gitignore-rules.ts";
import { isMandatoryExcluded, parentDirectories } from "../work-tree-paths.ts";
import { lstatOrUndefined } from "./work-tree-entries.ts";

/**
 * Which untracked entries git would list in the checkpoint store (`ls-files --others
 * --exclude-standard`), decided without git. The rules of every `.gitignore` from the top of the work
 * tree down to an entry's directory apply: inside one file the last matching rule wins, and a deeper
 * file's match overrides a shallower one's. Nothing inside an ignored directory, a nested repository, a
 * symbolic link or a mandatory exclude is listed, so no rule can re-include it. The git store adds no
 * other ignore source (its `info/exclude` holds only the mandatory excludes, `core.excludesFile` is
 * off). Answers are cached, so create one filter per operation.
 */
export interface UntrackedFilter {
  /** True when git would descend into `dir`, given that it descends into `dir`'s parents. */
  canEnter(dir: string): Promise<boolean>;
  /** True when git would descend into every parent directory of `path`. */
  reachable(path: string): Promise<boolean>;
  /** True when the `.gitignore` rules ignore `path`; its parents must be reachable. */
  ignored(path: string, isDirectory: boolean): Promise<boolean>;
}

export function createUntrackedFilter(workTree: string): UntrackedFilter {
  const rulesByDir = new Map<string, Promise<readonly IgnoreRule[]>>();
  const enterable = new Map<string, Promise<boolean>>();
  const rulesOf = (dir: string): Promise<readonly IgnoreRule[]> => {
    let rules = rulesByDir.get(dir);
    if (rules === undefined) {
      rules = readRules(join(workTree, dir, ".gitignore"));
      rulesByDir.set(dir, rules);
    }
    return rules;
  };
  const ignored = async (path: string, isDirectory: boolean): Promise<boolean> => {
    for (const dir of [...parentDirectories(path), ""]) {
      const relative = dir === "" ? path : path.slice(dir.length + 1);
      const verdict = lastMatch(await rulesOf(dir), relative, isDirectory);
      if (verdict !== undefined) return verdict;
    }
    return false;
  };
  const canEnter = (dir: string): Promise<boolean> => {
    let answer = enterable.get(dir);
    if (answer === undefined) {
      answer = enterDirectory(workTree, dir, ignored);
      enterable.set(dir, answer);
    }
    return answer;
  };
  const reachable = async (path: string): Promise<boolean> => {
    for (const dir of parentDirectories(path).reverse()) if (!(await canEnter(dir))) return false;
    return true;
  };
  return { canEnter, reachable, ignored };
}

async function enterDirectory(
  workTree: string,
  dir: string,
  ignored: UntrackedFilter["ignored"],
): Promise<boolean> {
  if (isMandatoryExcluded(dir)) return false;
  if ((await lstatOrUndefined(join(workTree, dir)))?.isDirectory() !== true) return false;
  if (await ignored(dir, true)) return false;
  return !(await isNestedRepository(join(workTree, dir)));
}

/** `true` ignored, `false` re-included by a `!` rule, undefined when no rule of the file matches. */
function lastMatch(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(path)) verdict = !rule.negate;
  }
  return verdict;
}

/** A `.gitignore` that is a regular file; git does not follow a linked one. */
async function readRules(path: string): Promise<readonly IgnoreRule[]> {
  if ((await lstatOrUndefined(path))?.isFile() !== true) return [];
  const text = await readFile(path, "utf8").catch(() => "");
  return parseGitignore(text);
}

/**
 * A directory holding another repository, whose files git leaves to it: `.git` is a gitfile
 * (`gitdir: ...`) or a directory with `HEAD`, `objects/` and `refs/`, the shape git checks for.
 */
async function isNestedRepository(dir: string): Promise<boolean> {
  const dotGit = join(dir, ".git");
  const stats = await lstatOrUndefined(dotGit);
  if (stats?.isFile()) return (await readFile(dotGit, "utf8").catch(() => "")).startsWith("gitdir: ");
  if (stats?.isDirectory() !== true) return false;
  const [head, objects, refs] = await Promise.all(
    ["HEAD", "objects", "refs"].map((name) => lstatOrUndefined(join(dotGit, name))),
  );
  return (
    head !== undefined &&
    !head.isDirectory() &&
    objects?.isDirectory() === true &&
    refs?.isDirectory() === true
  );
}
