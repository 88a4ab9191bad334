import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cacheRoot } from "../util/cache-root.ts";
import { extractBundle, extractScratch, intact } from "./extract.ts";
import { fetchRepository } from "./git-fetch.ts";
import { parseGitLocation } from "./git-location.ts";
import { isBundleName, needsResolution } from "./location-kind.ts";
import { bundleHashOf, HankLock, LOCK_FILE } from "./lock.ts";
import { verifyBundle } from "./verify.ts";

export interface ResolveContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** This hankweave's version, checked against a bundle's `runtime.min`. */
  readonly version: string;
  /**
   * Leave the cache as it is (`--validate`): a bundle is extracted into a temporary directory, named
   * in `scratch`, which the caller removes. Git locations are still cloned into the cache.
   */
  readonly scratch?: boolean;
}

export type ResolvedLocation =
  | {
      readonly ok: true;
      /** A local hank file or directory. */
      readonly hankPath: string;
      /** Lines for the user (`✓ Extracted to: …`). */
      readonly notes: readonly string[];
      readonly bundleHash?: string;
      /** The temporary directory to remove once done (with `ResolveContext.scratch`). */
      readonly scratch?: string;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Turns a bundle path, a bundle URL or a git location into a local, verified hank directory in the
 * cache; any other location comes back as it is. Nothing runs from a bundle whose lock fails.
 */
export async function resolveHankLocation(
  location: string,
  context: ResolveContext,
): Promise<ResolvedLocation> {
  if (!needsResolution(location)) return { ok: true, hankPath: location, notes: [] };
  const git = parseGitLocation(location);
  if (git !== undefined) return fromGit(location, git, context);
  if (/^https?:\/\//.test(location) && !isBundleName(location)) {
    return {
      ok: false,
      message: `Error: Failed to fetch remote hank: ${location} is neither a bundle (.hank, .tar.zst) nor a git repository. Use a bundle URL, git@…, git+<url>, or a GitHub/GitLab/Bitbucket URL.`,
    };
  }
  const bytes = await readBundle(location);
  if (typeof bytes === "string") return { ok: false, message: bytes };
  const verified = await verifyBundle(bytes, location, context.version);
  if (!verified.ok) return verified;
  const bundles = path.join(cacheRoot(context.env), "bundles");
  const cached = path.join(bundles, verified.lock.bundleHash);
  const verifiedNote = `✓ Verified bundle ${verified.lock.name} ${verified.lock.version} (bundleHash ${verified.lock.bundleHash.slice(0, 12)})`;
  if (context.scratch === true) {
    // Read a verified extraction where the cache has one; otherwise a temporary copy. Either way the
    // cache is left as it is.
    if (intact(cached, verified.lock))
      return { ok: true, hankPath: cached, notes: [verifiedNote], bundleHash: verified.lock.bundleHash };
    const scratch = extractScratch(verified.lock, verified.members, tmpdir());
    return {
      ok: true,
      hankPath: scratch,
      notes: [verifiedNote],
      bundleHash: verified.lock.bundleHash,
      scratch,
    };
  }
  // A verified extraction is reused as it is (reading it writes nothing, `--validate` included).
  const extraction = extractBundle(verified.lock, verified.members, bundles);
  const note = extraction.fresh
    ? `✓ Extracted to: ${extraction.directory}`
    : `Reusing verified extraction: ${extraction.directory}`;
  return { ok: true, hankPath: extraction.directory, notes: [note], bundleHash: verified.lock.bundleHash };
}

async function readBundle(location: string): Promise<Buffer | string> {
  if (!/^https?:\/\//.test(location)) {
    try {
      return fs.readFileSync(location);
    } catch (caught) {
      const reason = caught instanceof Error ? caught.message : String(caught);
      return `Error: cannot read bundle ${location}: ${reason}. Check the path.`;
    }
  }
  try {
    const response = await fetch(location, { redirect: "follow" });
    if (!response.ok) return `Error: Failed to fetch remote hank: ${location}: HTTP ${response.status}.`;
    return Buffer.from(await response.arrayBuffer());
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return `Error: Failed to fetch remote hank: ${location}: ${reason}.`;
  }
}

async function fromGit(
  location: string,
  git: NonNullable<ReturnType<typeof parseGitLocation>>,
  context: ResolveContext,
): Promise<ResolvedLocation> {
  let fetched: Awaited<ReturnType<typeof fetchRepository>>;
  try {
    fetched = await fetchRepository(git, path.join(cacheRoot(context.env), "hanks"));
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return { ok: false, message: `Error: Failed to fetch remote hank: ${location}: ${reason}` };
  }
  const hankPath = path.join(fetched.directory, ...git.path.split("/").filter((part) => part !== ""));
  const lockProblem = checkCommittedLock(hankPath, location);
  if (lockProblem !== undefined) return { ok: false, message: lockProblem };
  const verb = fetched.fresh ? "✓ Cloned" : "Reusing clone of";
  return {
    ok: true,
    hankPath,
    notes: [`${verb} ${git.cloneUrl} at ${fetched.commit.slice(0, 12)}: ${fetched.directory}`],
  };
}

/**
 * A repository that commits its `hank.lock` (written by `pack`) is held to it: every locked file must
 * hash as locked, and the lock's bundleHash must match. Without a lock, git's own hashes are the check.
 */
function checkCommittedLock(hankPath: string, location: string): string | undefined {
  const directory = hankPath.endsWith(".json") ? path.dirname(hankPath) : hankPath;
  const lockPath = path.join(directory, LOCK_FILE);
  if (!fs.existsSync(lockPath)) return undefined;
  let lock: HankLock;
  try {
    lock = HankLock.parse(JSON.parse(fs.readFileSync(lockPath, "utf8")));
  } catch {
    return `Error: ${location}: ${LOCK_FILE} is not a valid lock. Regenerate it with \`hankweave pack\` and commit it.`;
  }
  if (bundleHashOf(lock.files, lock.runtime) !== lock.bundleHash || !intact(directory, lock)) {
    return `Error: ${location}: the files do not match the committed ${LOCK_FILE}. Regenerate it with \`hankweave pack\` and commit it, or fix the files.`;
  }
  return undefined;
}
