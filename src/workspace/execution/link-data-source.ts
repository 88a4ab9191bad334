import { cp, lstat, readlink, rm, symlink } from "node:fs/promises";
import { errorCode } from "./fs-errors.ts";

export type LinkType = "symlink" | "copy";

/** Creates a symbolic link; injectable so tests can make it fail. */
export type SymlinkFn = (target: string, path: string, type: "dir" | "file" | "junction") => Promise<void>;

export interface LinkDataOptions {
  /** `--copy`: copy instead of linking. */
  readonly copy: boolean;
  readonly isDirectory: boolean;
  readonly symlink?: SymlinkFn;
  readonly platform?: NodeJS.Platform;
}

export type LinkResult =
  | { readonly ok: true; readonly linkType: LinkType; readonly note?: string }
  | { readonly ok: false; readonly message: string };

/**
 * Puts the data source at `linkPath` (`agentRoot/read_only_data_source`), replacing whatever was there:
 * a symbolic link to `source`, or a copy with `--copy` or when the link cannot be made (no permission
 * on Windows, a filesystem without links). Links inside a copied tree are copied as links.
 */
export async function linkDataSource(
  source: string,
  linkPath: string,
  options: LinkDataOptions,
): Promise<LinkResult> {
  await rm(linkPath, { recursive: true, force: true });
  let note: string | undefined;
  if (!options.copy) {
    const make = options.symlink ?? symlink;
    try {
      await make(source, linkPath, linkKind(options.isDirectory, options.platform ?? process.platform));
      return { ok: true, linkType: "symlink" };
    } catch (error) {
      note = `Could not link the data source (${errorCode(error)}); copied it instead.`;
      await rm(linkPath, { recursive: true, force: true });
    }
  }
  try {
    await cp(source, linkPath, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  } catch (error) {
    return {
      ok: false,
      message: `Could not copy the data source ${source} into ${linkPath} (${errorCode(error)}).`,
    };
  }
  return note === undefined ? { ok: true, linkType: "copy" } : { ok: true, linkType: "copy", note };
}

/**
 * Whether what is at `linkPath` can stay on resume: the same link target when linking, or a copy made
 * from data with the same hash. Anything else is redone.
 */
export async function existingLinkFits(
  linkPath: string,
  wanted: {
    readonly source: string;
    readonly copy: boolean;
    readonly dataUnchanged: boolean;
    readonly was: LinkType;
  },
): Promise<LinkType | null> {
  let isLink: boolean;
  try {
    isLink = (await lstat(linkPath)).isSymbolicLink();
  } catch {
    return null;
  }
  if (isLink) return !wanted.copy && (await readlink(linkPath)) === wanted.source ? "symlink" : null;
  return wanted.was === "copy" && wanted.dataUnchanged ? "copy" : null;
}

/** Windows needs a junction to link a directory without administrator rights. */
function linkKind(isDirectory: boolean, platform: NodeJS.Platform): "dir" | "file" | "junction" {
  if (!isDirectory) return "file";
  return platform === "win32" ? "junction" : "dir";
}
