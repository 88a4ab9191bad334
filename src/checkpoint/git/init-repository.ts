import { rmSync, statSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { onPath } from "../../util/on-path.ts";
import { commitBody } from "./commit-object.ts";
import { createRepository } from "./create-repository.ts";
import {
  CONFIG_INCLUDE_FILE,
  type GitIdentity,
  INFO_ATTRIBUTES,
  INFO_EXCLUDE,
  repositoryConfigText,
} from "./git-environment.ts";
import { writeObject } from "./loose-objects.ts";
import { moveRef, readRef, replaceUnderLock } from "./move-ref.ts";
import type { RunGit } from "./run-git.ts";

export const MAIN_REF = "refs/heads/main";

export interface InitRepositoryOptions {
  readonly gitDir: string;
  readonly identity: GitIdentity;
  readonly now: number;
  /** The store's index file (removed with a stale index before the initial commit). */
  readonly indexFile: string;
  /** The work tree the store checkpoints (`core.worktree` of a new store). */
  readonly workTree: string;
  /** The PATH git processes get: git must be found there (see `writesRepositoryItself`). */
  readonly pathEnv: string | undefined;
}

/**
 * Brings the store to its complete state. Every step checks before it acts, so running it again, or
 * after a crash part-way through, finishes the job without touching existing checkpoints: `git init`
 * re-initializes harmlessly, the config file is rewritten only when it differs and included only while
 * it is not, and the initial empty commit on `main` is made only while `main` does not exist.
 * Everything is written from here, inside git's lock protocol (each git process costs about 10 ms;
 * the store's set-up took twelve of them), the repository itself as `git init` makes it
 * (`createRepository`) on Linux; elsewhere `git init` still runs.
 */
export async function initRepository(git: RunGit, options: InitRepositoryOptions): Promise<void> {
  await mkdir(options.gitDir, { recursive: true });
  if (writesRepositoryItself(options)) createRepository(options.gitDir, options.workTree);
  else await git({ args: ["init", "--quiet", "--template=", "--initial-branch=main"] });
  await applyConfig(options.gitDir, options.identity);
  await writeIfChanged(join(options.gitDir, "info", "exclude"), INFO_EXCLUDE);
  await writeIfChanged(join(options.gitDir, "info", "attributes"), INFO_ATTRIBUTES);
  if (readRef(options.gitDir, MAIN_REF) === undefined) createInitialCommit(options);
}

/**
 * Whether the repository is written from here rather than by `git init`: on Linux (`createRepository`),
 * and only while a git process could start (git on PATH, the work tree, its working directory, there),
 * so that a store without git still fails at `init` with `git-unavailable`, as the spawn reports it.
 */
function writesRepositoryItself(options: InitRepositoryOptions): boolean {
  return process.platform === "linux" && onPath("git", options.pathEnv) && isDirectory(options.workTree);
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Our settings live in their own file, included from the store's `config` (after git's own section, so
 * they win over anything set there before). The include is added once; a crash before it is added
 * leaves a file that the next init includes.
 */
async function applyConfig(gitDir: string, identity: GitIdentity): Promise<void> {
  await writeIfChanged(join(gitDir, CONFIG_INCLUDE_FILE), repositoryConfigText(identity));
  const config = await readFile(join(gitDir, "config"), "utf8");
  if (includesFile(config, CONFIG_INCLUDE_FILE)) return;
  const separator = config === "" || config.endsWith("\n") ? "" : "\n";
  replaceUnderLock(gitDir, "config", `${config}${separator}[include]\n\tpath = ${CONFIG_INCLUDE_FILE}\n`);
}

/** Whether a git config text has `path = <file>` in an `[include]` section. */
export function includesFile(config: string, file: string): boolean {
  let section = "";
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(line);
    if (header !== null) section = (header[1] ?? "").toLowerCase();
    const value = /^path\s*=\s*"?([^"]*?)"?\s*$/i.exec(line)?.[1];
    if (section === "include" && value === file) return true;
  }
  return false;
}

/**
 * The root of every run's line: an empty tree on `main`, with a stale index from a crash cleared (git
 * reads a missing index file as an empty index). Objects first, the branch last.
 */
function createInitialCommit(options: InitRepositoryOptions): void {
  rmSync(options.indexFile, { force: true });
  const tree = writeObject(options.gitDir, "tree", Buffer.alloc(0)).id;
  const body = commitBody(tree, undefined, options, "hankweave: initial checkpoint\n");
  moveRef(options.gitDir, MAIN_REF, writeObject(options.gitDir, "commit", body).id, undefined);
}

async function writeIfChanged(path: string, content: string): Promise<void> {
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing === content) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
