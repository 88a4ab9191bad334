import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, symlinkSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { replaceUnderLock } from "./move-ref.ts";

/** The branch a new store's HEAD names, as `git init --initial-branch=main` writes it. */
const INITIAL_HEAD = "ref: refs/heads/main\n";
/** The directories `git init --template=` makes: no hooks, no info, no description. */
const SKELETON = ["objects/info", "objects/pack", "refs/heads", "refs/tags"];

/**
 * What `git init --quiet --template= --initial-branch=main` makes of an empty `gitDir` with
 * `GIT_WORK_TREE=workTree`, written from this process instead of by a git process (about 7 ms of every
 * new execution's start): the object and ref directories, a `config` with git's `[core]` section as it
 * would write it on this file system (git's own probes: whether the executable bit holds, whether
 * symlinks can be made, whether names ignore case), and HEAD on `main`, last, so that a store is one
 * (git needs HEAD, objects/ and refs/) only once it is whole. A store that has HEAD is left as it is,
 * as `git init` leaves an existing one's files. For Linux: elsewhere git probes more (on macOS the
 * file system's Unicode composition, `core.precomposeUnicode`), and the caller runs `git init` there.
 */
export function createRepository(gitDir: string, workTree: string): void {
  for (const dir of SKELETON) mkdirSync(join(gitDir, dir), { recursive: true });
  if (existsSync(join(gitDir, "HEAD"))) return;
  replaceUnderLock(gitDir, "config", coreSection(gitDir, workTree, []));
  const probed = probeFileSystem(gitDir);
  replaceUnderLock(gitDir, "config", coreSection(gitDir, workTree, probed));
  replaceUnderLock(gitDir, "HEAD", INITIAL_HEAD);
}

/** `git init`'s `[core]` section, in its order; `probed` are the settings the file system asked for. */
function coreSection(gitDir: string, workTree: string, probed: readonly string[]): string {
  const tree = absolute(workTree);
  const lines = [
    "repositoryformatversion = 0",
    ...probed.filter((line) => line.startsWith("filemode")),
    "bare = false",
    "logallrefupdates = true",
    ...probed.filter((line) => !line.startsWith("filemode")),
    // git leaves it out only for the default layout, a `.git` directory inside the work tree.
    ...(basename(gitDir) === ".git" && absolute(dirname(gitDir)) === tree ? [] : [`worktree = ${tree}`]),
  ];
  return `[core]\n${lines.map((line) => `\t${line}\n`).join("")}`;
}

/**
 * git's probes of a new repository's file system, on its `config` file and a scratch name beside it:
 * `filemode` always, `symlinks = false` when a symlink cannot be made, `ignorecase = true` when the
 * config file answers to another case of its name.
 */
function probeFileSystem(gitDir: string): string[] {
  const config = join(gitDir, "config");
  const settings = [`filemode = ${executableBitHolds(config)}`];
  if (!symlinksWork(gitDir)) settings.push("symlinks = false");
  if (existsSync(join(gitDir, "CoNfIg"))) settings.push("ignorecase = true");
  return settings;
}

function executableBitHolds(file: string): boolean {
  const before = lstatSync(file).mode;
  try {
    chmodSync(file, before ^ 0o100);
    const held = lstatSync(file).mode !== before;
    chmodSync(file, before);
    return held;
  } catch {
    return false;
  }
}

function symlinksWork(gitDir: string): boolean {
  const probe = join(gitDir, `hankweave-symlink-probe-${process.pid}`);
  try {
    symlinkSync("testing", probe);
    unlinkSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** The path as git writes `core.worktree`: absolute, links resolved when it exists. */
function absolute(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
