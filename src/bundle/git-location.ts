/**
 * A git hank location, as the reference spells them: `git@host:owner/repo(.git)`, `git+<url>` (any URL
 * git clones, file:// included), or an http(s) URL on GitHub, GitLab or Bitbucket. The ref and the
 * hank's path inside the repository come from `#<ref>[/<path>]` or, on those hosts, `/tree|blob/<ref>/<path>`.
 */
export interface GitLocation {
  readonly cloneUrl: string;
  /** Branch or tag; undefined: the remote's default branch. */
  readonly ref?: string;
  /** The hank file or directory inside the repository, `/`-separated; "" for the root. */
  readonly path: string;
}

const HOSTED = /^https?:\/\/(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)\//;

export function parseGitLocation(location: string): GitLocation | undefined {
  const [base = "", fragment] = splitFragment(location);
  if (base.startsWith("git+")) return withFragment(base.slice(4), fragment);
  if (base.startsWith("git@")) return withFragment(base, fragment);
  if (!HOSTED.test(base)) return undefined;
  const tree = base.match(
    /^(https?:\/\/[^/]+\/[^/]+\/[^/]+?)(?:\.git)?\/(?:-\/)?(?:tree|blob)\/([^/]+)(?:\/(.*))?$/,
  );
  if (tree !== null) {
    const [, repo = "", ref = "", inner = ""] = tree;
    return { cloneUrl: `${repo}.git`, ref, path: trimSlashes(inner) };
  }
  return withFragment(base.endsWith(".git") ? base : `${trimSlashes(base)}.git`, fragment);
}

function splitFragment(location: string): [string, string | undefined] {
  const hash = location.indexOf("#");
  return hash === -1 ? [location, undefined] : [location.slice(0, hash), location.slice(hash + 1)];
}

function withFragment(cloneUrl: string, fragment: string | undefined): GitLocation {
  if (fragment === undefined || fragment === "") return { cloneUrl, path: "" };
  const slash = fragment.indexOf("/");
  if (slash === -1) return { cloneUrl, ref: fragment, path: "" };
  return { cloneUrl, ref: fragment.slice(0, slash), path: trimSlashes(fragment.slice(slash + 1)) };
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, "");
}
