import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  commitDateEnvironment,
  type GitIdentity,
  INFO_ATTRIBUTES,
  INFO_EXCLUDE,
  repositoryConfig,
} from "./git-environment.ts";
import { resolveCommit } from "./git-queries.ts";
import type { RunGit } from "./run-git.ts";

export const MAIN_REF = "refs/heads/main";

export interface InitRepositoryOptions {
  readonly gitDir: string;
  readonly identity: GitIdentity;
  readonly now: number;
}

/**
 * Brings the store to its complete state. Every step checks before it acts, so running it again, or
 * after a crash part-way through, finishes the job without touching existing checkpoints: `git init`
 * re-initializes harmlessly, only missing or different config is written, and the initial empty
 * commit on `main` is made only while `main` does not exist.
 */
export async function initRepository(git: RunGit, options: InitRepositoryOptions): Promise<void> {
  await mkdir(options.gitDir, { recursive: true });
  await git({ args: ["init", "--quiet", "--template=", "--initial-branch=main"] });
  await applyConfig(git, options.identity);
  await writeIfChanged(join(options.gitDir, "info", "exclude"), INFO_EXCLUDE);
  await writeIfChanged(join(options.gitDir, "info", "attributes"), INFO_ATTRIBUTES);
  if ((await resolveCommit(git, MAIN_REF)) === undefined) await createInitialCommit(git, options.now);
}

async function applyConfig(git: RunGit, identity: GitIdentity): Promise<void> {
  const current = await readLocalConfig(git);
  for (const [key, value] of repositoryConfig(identity)) {
    if (current.get(key.toLowerCase()) !== value) await git({ args: ["config", "--local", key, value] });
  }
}

/** `git config --list -z` prints `key\nvalue\0` per entry; keys come lower-cased. */
async function readLocalConfig(git: RunGit): Promise<Map<string, string>> {
  const result = await git({ args: ["config", "--local", "--list", "-z"] });
  const entries = new Map<string, string>();
  for (const entry of result.stdout.split("\0")) {
    const newline = entry.indexOf("\n");
    if (newline > 0) entries.set(entry.slice(0, newline), entry.slice(newline + 1));
  }
  return entries;
}

/** The root of every run's line: an empty tree on `main`, with a stale index from a crash cleared. */
async function createInitialCommit(git: RunGit, now: number): Promise<void> {
  await git({ args: ["read-tree", "--empty"] });
  const tree = (await git({ args: ["mktree"], input: "" })).stdout.trim();
  const commit = await git({
    args: ["commit-tree", tree, "-m", "hankweave: initial checkpoint"],
    env: commitDateEnvironment(now),
  });
  await git({ args: ["update-ref", MAIN_REF, commit.stdout.trim(), ""] });
}

async function writeIfChanged(path: string, content: string): Promise<void> {
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing === content) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
