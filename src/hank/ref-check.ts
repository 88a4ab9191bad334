import fs from "node:fs";
import path from "node:path";
import { type RefCheck, type RefExpect, type RefRule, refFailure } from "./ref-rules.ts";

/**
 * The strict path contract for hank refs. A ref is a relative, `/`-separated path that stays inside
 * the hank directory at every step and passes through no symlink. The checks run in this order, and
 * the first failure is returned:
 *   1. spelling (pure): empty, absolute, Windows drive, backslash, NUL byte;
 *   2. escape (pure): climbing above the hank directory at any step, even to come back in;
 *   3. walk (filesystem): every component is lstat'ed (never followed); a symlink anywhere, or a
 *      missing component, stops the walk;
 *   4. kind: the final entry must be what the caller expects.
 * Only the hank directory's own path is canonicalized (realpath), so a hank that lives under a
 * symlinked directory (macOS `/tmp`) is fine while a symlink inside the hank is not.
 */
export interface RefOptions {
  /**
   * A hank-relative directory the ref is written relative to (a sentinel config's own folder).
   * Containment is still measured from the hank directory.
   */
  readonly base?: string;
}

type Spelling = { readonly rule: RefRule; readonly phrase: string };

const MUST_BE_RELATIVE = "hank refs must be relative paths inside the hank directory";

/** Step 1: the pure spelling rules. Returns null when the spelling is acceptable. */
export function refSpellingProblem(ref: string): Spelling | null {
  if (ref === "")
    return { rule: "empty", phrase: "is an empty path; name a file relative to the hank directory" };
  if (ref.startsWith("/")) return { rule: "absolute", phrase: `is an absolute path; ${MUST_BE_RELATIVE}` };
  // Checked before the backslash rule so `C:\x` reports the drive, its real problem.
  if (/^[A-Za-z]:/.test(ref)) {
    return { rule: "windows-drive", phrase: `is a Windows drive path; ${MUST_BE_RELATIVE}` };
  }
  if (ref.includes("\\")) {
    return {
      rule: "backslash",
      phrase: 'contains a backslash; hank refs use "/" as the only path separator',
    };
  }
  if (ref.includes("\0"))
    return { rule: "nul-byte", phrase: "contains a NUL byte, which no file name can hold" };
  return null;
}

/**
 * Step 2: the pure escape rule over the components. Returns the prefix at which the path first
 * climbs above the hank directory (`a/../..`), or null when it never does.
 */
export function refEscapePoint(parts: readonly string[]): string | null {
  let depth = 0;
  for (const [index, part] of parts.entries()) {
    if (part === "" || part === ".") continue;
    depth += part === ".." ? -1 : 1;
    if (depth < 0) return parts.slice(0, index + 1).join("/");
  }
  return null;
}

/** Checks one ref against the contract. Never throws for user input. */
export function checkRef(
  hankDir: string,
  ref: string,
  expect: RefExpect,
  options: RefOptions = {},
): RefCheck {
  const spelling = refSpellingProblem(ref);
  if (spelling !== null) return refFailure(spelling.rule, ref, spelling.phrase);
  const parts = [...(options.base ? options.base.split("/") : []), ...ref.split("/")];
  const escapedAt = refEscapePoint(parts);
  if (escapedAt !== null) {
    return refFailure(
      "escapes-hank-dir",
      ref,
      `escapes the hank directory (at "${escapedAt}"); a ref may not climb above the hank directory at any step, even to come back in`,
    );
  }
  const walked = walkComponents(hankDir, ref, parts);
  if (!walked.ok) return walked.failure;
  const relativePath = walked.components.join("/") || ".";
  const absolutePath = path.join(path.resolve(hankDir), ...walked.components);
  return checkKind(ref, expect, walked.stats, { relativePath, absolutePath });
}

type Walk = { ok: true; components: string[]; stats: fs.Stats } | { ok: false; failure: RefCheck };

/** Step 3: lstat every component below the hank directory, in the order the OS would walk them. */
function walkComponents(hankDir: string, ref: string, parts: readonly string[]): Walk {
  const root = canonicalHankDir(hankDir);
  const rootStats = lstatOrError(root);
  if (!(rootStats instanceof fs.Stats))
    return { ok: false, failure: missingOrUnreadable(ref, root, rootStats) };
  const components: string[] = [];
  const stats: fs.Stats[] = [rootStats];
  const meaningful = parts.filter((part) => part !== "" && part !== ".");
  for (const [index, part] of meaningful.entries()) {
    if (part === "..") {
      components.pop();
      stats.pop();
      continue;
    }
    components.push(part);
    const current = path.join(root, ...components);
    const entry = components.join("/");
    const found = lstatOrError(current);
    if (!(found instanceof fs.Stats)) return { ok: false, failure: missingOrUnreadable(ref, current, found) };
    if (found.isSymbolicLink()) {
      const phrase = `passes through a symlink at "${entry}"; symlinks are not allowed in hank refs`;
      return { ok: false, failure: refFailure("symlink", ref, phrase, { absolutePath: current, entry }) };
    }
    const more = index < meaningful.length - 1;
    if (more && !found.isDirectory()) {
      return {
        ok: false,
        failure: refFailure("not-found", ref, "does not exist", { absolutePath: current }),
      };
    }
    stats.push(found);
  }
  const last = stats.at(-1) ?? rootStats;
  return { ok: true, components, stats: last };
}

/** Step 4: the final entry must be the expected kind. */
function checkKind(
  ref: string,
  expect: RefExpect,
  stats: fs.Stats,
  where: { relativePath: string; absolutePath: string },
): RefCheck {
  const extra = { absolutePath: where.absolutePath };
  const isFile = stats.isFile();
  const isDirectory = stats.isDirectory();
  if (expect === "file" && !isFile) return refFailure("not-a-file", ref, "is not a regular file", extra);
  if (expect === "directory" && !isDirectory) {
    return refFailure("not-a-directory", ref, "is not a directory", extra);
  }
  if (!isFile && !isDirectory)
    return refFailure("special-file", ref, "is not a regular file or directory", extra);
  return { ok: true, ...where, kind: isFile ? "file" : "directory", size: stats.size };
}

/** The hank directory with its own symlinked ancestry resolved; the path as given if that fails. */
function canonicalHankDir(hankDir: string): string {
  try {
    return fs.realpathSync.native(hankDir);
  } catch {
    return path.resolve(hankDir);
  }
}

function lstatOrError(target: string): fs.Stats | NodeJS.ErrnoException {
  try {
    return fs.lstatSync(target);
  } catch (caught) {
    if (caught instanceof Error) return caught;
    throw caught;
  }
}

function missingOrUnreadable(ref: string, absolutePath: string, cause: NodeJS.ErrnoException): RefCheck {
  if (cause.code === "ENOENT" || cause.code === "ENOTDIR") {
    return refFailure("not-found", ref, "does not exist", { absolutePath });
  }
  return refFailure("unreadable", ref, `is not readable: ${cause.message}`, { absolutePath });
}
