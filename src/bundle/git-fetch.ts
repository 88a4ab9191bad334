import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { GitLocation } from "./git-location.ts";

const run = promisify(execFile);
const META_FILE = ".hankweave-cache-meta.json";

export interface FetchedRepository {
  readonly directory: string;
  readonly commit: string;
  /** False when the cached clone was still at the remote's tip. */
  readonly fresh: boolean;
}

/**
 * A shallow clone (`git clone --depth 1`) in `<cacheRoot>/<sha256(cloneUrl#ref)[0:16]>/`, written to a
 * temporary sibling and renamed into place. A cached clone is reused while `git ls-remote` shows the
 * same tip; when the remote moved, it is replaced. Git never prompts (a private repository fails).
 */
export async function fetchRepository(location: GitLocation, cacheRoot: string): Promise<FetchedRepository> {
  const key = createHash("sha256")
    .update(`${location.cloneUrl}#${location.ref ?? ""}`)
    .digest("hex")
    .slice(0, 16);
  const directory = path.join(cacheRoot, key);
  const cached = readMeta(directory);
  const tip = await remoteTip(location);
  // Offline (no tip), a cached clone is used as it is.
  if (cached !== undefined && (tip === undefined || cached === tip))
    return { directory, commit: cached, fresh: false };
  fs.mkdirSync(cacheRoot, { recursive: true });
  const temporary = path.join(cacheRoot, `.clone-${key}-${randomBytes(4).toString("hex")}`);
  try {
    const branch = location.ref === undefined ? [] : ["--branch", location.ref];
    await git(["clone", "--quiet", "--depth", "1", ...branch, "--", location.cloneUrl, temporary]);
    const commit = (await git(["-C", temporary, "rev-parse", "HEAD"])).trim();
    fs.writeFileSync(
      path.join(temporary, META_FILE),
      `${JSON.stringify({ cloneUrl: location.cloneUrl, ref: location.ref ?? null, commit })}\n`,
    );
    fs.rmSync(directory, { recursive: true, force: true });
    fs.renameSync(temporary, directory);
    return { directory, commit, fresh: true };
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

/** The commit the ref (or HEAD) points at on the remote; undefined when it cannot be asked. */
async function remoteTip(location: GitLocation): Promise<string | undefined> {
  try {
    const output = await git(["ls-remote", "--", location.cloneUrl, location.ref ?? "HEAD"]);
    return output.split("\n")[0]?.split("\t")[0] || undefined;
  } catch {
    return undefined;
  }
}

function readMeta(directory: string): string | undefined {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(directory, META_FILE), "utf8")) as { commit?: unknown };
    return typeof meta.commit === "string" ? meta.commit : undefined;
  } catch {
    return undefined;
  }
}

async function git(args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run("git", [...args], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "echo" },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (caught) {
    const stderr = (caught as { stderr?: unknown }).stderr;
    const detail = typeof stderr === "string" && stderr.trim() !== "" ? stderr.trim() : String(caught);
    throw new Error(`git ${args[0] ?? ""} failed: ${detail}`);
  }
}
