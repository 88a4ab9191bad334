import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  CONFIG_INCLUDE_FILE,
  commitDateEnvironment,
  type GitIdentity,
  INFO_ATTRIBUTES,
  INFO_EXCLUDE,
  repositoryConfigText,
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
 * re-initializes harmlessly, the config file is rewritten only when it differs and included only while
 * it is not, and the initial empty commit on `main` is made only while `main` does not exist.
 */
export async function initRepository(git: RunGit, options: InitRepositoryOptions): Promise<void> {
  await mkdir(options.gitDir, { recursive: true });
  await git({ args: ["init", "--quiet", "--template=", "--initial-branch=main"] });
  await applyConfig(git, options.gitDir, options.identity);
  await writeIfChanged(join(options.gitDir, "info", "exclude"), INFO_EXCLUDE);
  await writeIfChanged(join(options.gitDir, "info", "attributes"), INFO_ATTRIBUTES);
  if ((await resolveCommit(git, MAIN_REF)) === undefined) await createInitialCommit(git, options.now);
}

/**
 * Our settings live in their own file, included from the store's `config` (after git's own section, so
 * they win over anything set there before). The include is added once; a crash before it is added
 * leaves a file that the next init includes.
 */
async function applyConfig(git: RunGit, gitDir: string, identity: GitIdentity): Promise<void> {
  await writeIfChanged(join(gitDir, CONFIG_INCLUDE_FILE), repositoryConfigText(identity));
  const included = await git({ args: ["config", "--local", "--get-all", "include.path"], okCodes: [0, 1] });
  if (included.stdout.split("\n").includes(CONFIG_INCLUDE_FILE)) return;
  await git({ args: ["config", "--local", "--add", "include.path", CONFIG_INCLUDE_FILE] });
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
