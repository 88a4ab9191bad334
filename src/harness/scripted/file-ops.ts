import { appendFile, lstat, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** What a file directive did: a tool result text and, on success, the file change to report. */
export type FileOpResult =
  | {
      readonly ok: true;
      readonly message: string;
      readonly change: { readonly path: string; readonly action: "created" | "modified" | "deleted" };
    }
  | { readonly ok: false; readonly message: string };

type Resolved = { ok: true; absolute: string; relative: string } | { ok: false; message: string };

/**
 * Resolves a directive path inside the workspace. Absolute paths, `..` segments, the workspace itself
 * and paths that reach outside it through a symlink (such as `read_only_data_source/`) are refused.
 * `checkTarget` also follows the target itself when it exists (writes follow links; deletes do not).
 */
export async function resolveInside(cwd: string, path: string, checkTarget: boolean): Promise<Resolved> {
  if (isAbsolute(path))
    return { ok: false, message: `Path ${path} is absolute; use a path relative to the workspace` };
  if (path.split(/[\\/]/).includes("..")) return { ok: false, message: `Path ${path} leaves the workspace` };
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  if (rel === "") return { ok: false, message: `Path ${path} is the workspace itself` };
  const realRoot = await realpathOrUndefined(cwd);
  const existing = await nearestExisting(checkTarget ? absolute : dirname(absolute));
  const realExisting = await realpathOrUndefined(existing);
  if (realRoot === undefined || realExisting === undefined) {
    return {
      ok: false,
      message: `Path ${path} cannot be resolved (dangling symbolic link or missing workspace)`,
    };
  }
  if (realExisting !== realRoot && !realExisting.startsWith(realRoot + sep)) {
    return { ok: false, message: `Path ${path} leaves the workspace through a symbolic link` };
  }
  return { ok: true, absolute, relative: rel.split(sep).join("/") };
}

/** `@write` (replace) or `@append` (add text and a newline); parent directories are created. */
export async function writeWorkspaceFile(
  cwd: string,
  path: string,
  text: string,
  mode: "write" | "append",
): Promise<FileOpResult> {
  const target = await resolveInside(cwd, path, true);
  if (!target.ok) return target;
  const content = mode === "append" ? `${text}\n` : text;
  try {
    const existed = await exists(target.absolute);
    await mkdir(dirname(target.absolute), { recursive: true });
    if (mode === "append") await appendFile(target.absolute, content);
    else await writeFile(target.absolute, content);
    const bytes = Buffer.byteLength(content);
    const verb = mode === "append" ? "Appended" : "Wrote";
    return {
      ok: true,
      message: `${verb} ${bytes} bytes to ${target.relative}`,
      change: { path: target.relative, action: existed ? "modified" : "created" },
    };
  } catch (error) {
    return {
      ok: false,
      message: `${mode === "append" ? "Append to" : "Write"} ${target.relative} failed: ${errorText(error)}`,
    };
  }
}

/** `@delete`: removes a file, a symlink (not its target) or a directory tree. */
export async function deleteWorkspaceFile(cwd: string, path: string): Promise<FileOpResult> {
  const target = await resolveInside(cwd, path, false);
  if (!target.ok) return target;
  if (!(await exists(target.absolute)))
    return { ok: false, message: `No such file or directory: ${target.relative}` };
  try {
    await rm(target.absolute, { recursive: true });
    return {
      ok: true,
      message: `Deleted ${target.relative}`,
      change: { path: target.relative, action: "deleted" },
    };
  } catch (error) {
    return { ok: false, message: `Delete ${target.relative} failed: ${errorText(error)}` };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function nearestExisting(path: string): Promise<string> {
  let current = path;
  while (!(await exists(current))) {
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  return current;
}

async function realpathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
