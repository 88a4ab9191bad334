import fs from "node:fs";
import path from "node:path";
import { checkRef } from "./ref-check.ts";
import { quotePath, type RefCheck, type RefRule } from "./ref-rules.ts";

/**
 * The rig copy `from` contract: a strict hank ref (file or directory) that is not the hank directory
 * itself, and, for a directory, a tree that holds only regular files and directories. The scan
 * lstat's every entry and never follows a link, so link cycles cannot recurse; entries are visited
 * in sorted order so the reported entry is the same on every machine.
 *
 * Messages are full sentences the validator prefixes with its context: ref failures read
 * `source path "X" does not exist`, copy failures `copy source "X" is the hank directory itself; ...`.
 */
export interface CopySourceOptions {
  /**
   * Entries the copy will leave out (the hank's .gitignore); they are neither copied nor scanned.
   * `relativePath` is relative to the copy source, `/`-separated.
   */
  readonly exclude?: (relativePath: string, isDirectory: boolean) => boolean;
}

export function checkCopySource(hankDir: string, from: string, options: CopySourceOptions = {}): RefCheck {
  const ref = checkRef(hankDir, from, "any");
  if (!ref.ok) return { ...ref, message: `source path ${ref.message}` };
  if (ref.relativePath === ".") {
    return copyFailure(
      "copy-from-hank-dir",
      from,
      "is the hank directory itself; move the files into a subdirectory and copy that",
    );
  }
  if (ref.kind === "file") return ref;
  const problem = scanTree(ref.absolutePath, ref.relativePath, options.exclude);
  if (problem === null) return ref;
  return copyFailure(problem.rule, from, problem.phrase, {
    absolutePath: path.join(ref.absolutePath, problem.inside),
    entry: problem.entry,
  });
}

type TreeProblem = { rule: RefRule; phrase: string; entry: string; inside: string };

/** Walks a directory tree depth-first; returns the first symlink or special file found. */
function scanTree(
  root: string,
  rootRelative: string,
  exclude: CopySourceOptions["exclude"],
): TreeProblem | null {
  const pending: string[] = [""];
  for (let inside = pending.pop(); inside !== undefined; inside = pending.pop()) {
    const listed = readNames(path.join(root, inside));
    if ("error" in listed) return unreadableEntry(rootRelative, inside, listed.error);
    const subdirectories: string[] = [];
    for (const name of listed.names) {
      const child = inside === "" ? name : `${inside}/${name}`;
      const problem = inspectEntry(root, rootRelative, child, exclude);
      if (problem === "directory") subdirectories.push(child);
      else if (problem !== null) return problem;
    }
    // Pushed in reverse so the smallest name is scanned first.
    pending.push(...subdirectories.reverse());
  }
  return null;
}

function inspectEntry(
  root: string,
  rootRelative: string,
  inside: string,
  exclude: CopySourceOptions["exclude"],
): TreeProblem | "directory" | null {
  const entry = `${rootRelative}/${inside}`;
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(path.join(root, inside));
  } catch (caught) {
    return unreadableEntry(rootRelative, inside, caught);
  }
  if (exclude?.(inside, stats.isDirectory())) return null;
  if (stats.isSymbolicLink()) {
    const phrase = `contains a symlink at "${entry}"; symlinks are not allowed anywhere in a copied tree`;
    return { rule: "tree-symlink", phrase, entry, inside };
  }
  if (stats.isDirectory()) return "directory";
  if (stats.isFile()) return null;
  const phrase = `contains a FIFO, socket or device at "${entry}"; only regular files and directories can be copied`;
  return { rule: "tree-special", phrase, entry, inside };
}

function readNames(directory: string): { names: string[] } | { error: unknown } {
  try {
    return { names: fs.readdirSync(directory).sort() };
  } catch (caught) {
    return { error: caught };
  }
}

function unreadableEntry(rootRelative: string, inside: string, cause: unknown): TreeProblem {
  const entry = inside === "" ? rootRelative : `${rootRelative}/${inside}`;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return { rule: "unreadable", phrase: `cannot be scanned at "${entry}": ${reason}`, entry, inside };
}

function copyFailure(
  rule: RefRule,
  from: string,
  phrase: string,
  extra: { absolutePath?: string; entry?: string } = {},
): RefCheck {
  return { ok: false, rule, message: `copy source ${quotePath(from)} ${phrase}`, phrase, ...extra };
}
