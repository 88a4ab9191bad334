import { EXCLUDED_ANY_DEPTH, EXCLUDED_TOP_LEVEL } from "../work-tree-paths.ts";

/**
 * The isolated environment of every checkpoint git process, built from scratch rather than inherited:
 * no system or global config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`, `GIT_ATTR_NOSYSTEM`),
 * no HOME or XDG (so no user excludes or attributes), an explicit identity (a fresh CI machine has
 * none), the C locale, no prompts, pager or editor, and the private git dir, work tree and index.
 * Nothing from the caller's environment leaks in except PATH, which is needed to find git. Pure.
 *
 * The store sits inside the execution, where an agent can write, so its own config is not trusted
 * either: every setting that could make git run a program (fsmonitor, hooks, pager, editor, signing)
 * or change what a checkpoint records or restores (excludes, attributes, line endings, sparse checkout,
 * file modes, symbolic links, case folding, stat checks) is given
 * per command (`COMMAND_CONFIG`), which outranks the repository's config and anything it includes.
 * Filter drivers are switched off by `info/attributes`, which the checkpointer puts back before every
 * git process (see `StoreFilesGuard`).
 */
export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export const DEFAULT_IDENTITY: GitIdentity = { name: "hankweave", email: "checkpoints@hankweave.invalid" };

export interface GitEnvironmentOptions {
  readonly gitDir: string;
  readonly workTree: string;
  readonly indexFile: string;
  readonly identity: GitIdentity;
  readonly pathEnv: string;
}

/**
 * Settings passed as command-scope config (`GIT_CONFIG_COUNT`): they outrank the repository's config,
 * and git treats them as protected. The store may live in a directory owned by another user
 * (containers); no hook, monitor, pager or editor may ever run; nothing the store's config says may
 * change which files a checkpoint records or how they are stored.
 */
export const COMMAND_CONFIG: readonly (readonly [string, string])[] = [
  ["safe.directory", "*"],
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", ":"],
  ["core.excludesFile", "/dev/null"],
  ["core.attributesFile", "/dev/null"],
  ["core.autocrlf", "false"],
  ["core.safecrlf", "false"],
  ["core.sparseCheckout", "false"],
  ["index.sparse", "false"],
  ["commit.gpgSign", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  // What the index records and a restore writes (git-config, "core.*"): executable bits, symbolic
  // links as links, names compared case-sensitively and byte for byte, git's default path checks.
  ["core.fileMode", "true"],
  ["core.symlinks", "true"],
  ["core.ignoreCase", "false"],
  ["core.precomposeUnicode", "false"],
  ["core.protectNTFS", "true"],
  ["core.protectHFS", "false"],
  // How a change is seen: every stat field is compared, and no file is assumed unchanged.
  ["core.trustctime", "true"],
  ["core.checkStat", "default"],
  ["core.ignoreStat", "false"],
  // What the runtime parses: plain log output (no signatures, colours or re-encoding).
  ["log.showSignature", "false"],
  ["color.ui", "never"],
  ["i18n.logOutputEncoding", "UTF-8"],
];

export function gitEnvironment(options: GitEnvironmentOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: options.pathEnv,
    LANG: "C",
    LC_ALL: "C",
    GIT_DIR: options.gitDir,
    GIT_WORK_TREE: options.workTree,
    GIT_INDEX_FILE: options.indexFile,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: options.identity.name,
    GIT_AUTHOR_EMAIL: options.identity.email,
    GIT_COMMITTER_NAME: options.identity.name,
    GIT_COMMITTER_EMAIL: options.identity.email,
    GIT_CONFIG_COUNT: String(COMMAND_CONFIG.length),
  };
  COMMAND_CONFIG.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Author and committer dates of one commit, from the injected clock (whole seconds, UTC). */
export function commitDateEnvironment(epochMs: number): Record<string, string> {
  const date = `@${Math.floor(epochMs / 1000)} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

/**
 * The repository's own config, written by `init` (and visible to anyone inspecting the store):
 * no automatic gc or maintenance (one extra process per commit otherwise), the split index (only a
 * small delta is rewritten per commit), the untracked cache (faster full scans), no signing, no hooks,
 * no line-ending conversion, and only the excludes inside the work tree.
 */
export function repositoryConfig(identity: GitIdentity): (readonly [string, string])[] {
  return [
    ["gc.auto", "0"],
    ["maintenance.auto", "false"],
    ["core.splitIndex", "true"],
    ["core.untrackedCache", "true"],
    ["core.fsmonitor", "false"],
    ["core.hooksPath", "/dev/null"],
    ["core.autocrlf", "false"],
    ["core.excludesFile", "/dev/null"],
    ["core.attributesFile", "/dev/null"],
    ["commit.gpgSign", "false"],
    ["tag.gpgSign", "false"],
    ["user.name", identity.name],
    ["user.email", identity.email],
  ];
}

/** The file in the git dir that holds `repositoryConfig`; the store's own `config` includes it. */
export const CONFIG_INCLUDE_FILE = "hankweave.gitconfig";

/**
 * `repositoryConfig` in git's config-file syntax, one section per key prefix, every value quoted.
 * Written as one file and included, it costs one `git config` process at init instead of one per key.
 */
export function repositoryConfigText(identity: GitIdentity): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of repositoryConfig(identity)) {
    const dot = key.indexOf(".");
    const section = key.slice(0, dot);
    const lines = sections.get(section) ?? [];
    lines.push(`\t${key.slice(dot + 1)} = ${quoteConfigValue(value)}`);
    sections.set(section, lines);
  }
  const body = [...sections].flatMap(([section, lines]) => [`[${section}]`, ...lines]);
  return ["# Written by hankweave at every start; edits are overwritten.", ...body, ""].join("\n");
}

/** A git config value in double quotes: backslash, quote and newline escaped as git reads them. */
function quoteConfigValue(value: string): string {
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return `"${escaped}"`;
}

/**
 * `info/exclude` of the store: the mandatory excludes as ignore rules, so git never walks into a
 * copied data directory; the checkpointer filters them out as well.
 */
export const INFO_EXCLUDE = [
  "# Written by hankweave: never checkpointed.",
  ...EXCLUDED_TOP_LEVEL.map((name) => `/${name}`),
  ...EXCLUDED_ANY_DEPTH,
  "",
].join("\n");

/**
 * `info/attributes` of the store, which outranks every `.gitattributes` in the work tree: files are
 * stored and restored byte for byte (no end-of-line conversion, filters or keyword expansion).
 */
export const INFO_ATTRIBUTES =
  "# Written by hankweave: checkpoints are byte-exact.\n* -text -eol -filter -ident -working-tree-encoding\n";
