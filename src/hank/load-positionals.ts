import fs from "node:fs";
import path from "node:path";
import { nearNames } from "./near-names.ts";

/**
 * The CLI's positional arguments: `hankweave [hank] [data]`. At most two. With two, the first is the
 * hank and the second the data. With one, it is the hank when it
 *   - is `-` (stdin), ends in `.json`, is a bundle (`.hank`, `.tar.zst`) or a remote URL, or
 *   - is a directory that contains `hank.json` (auto-discovery);
 * otherwise it is the data path and the hank is `hank.json` in cwd. A directory holding hank.json is
 * taken as the hank because that is what the user most likely means; a data directory that happens
 * to hold a hank.json can be passed as the second positional or with `--data`.
 * The loader reports what it cannot read (stdin, bundles, URLs), so the decision here stays simple.
 */
export type PositionalResolution =
  | {
      readonly ok: true;
      /** Absolute path, or `-` / the URL as given. */
      readonly hank: string;
      /** Absolute path, when a data positional was given. */
      readonly data?: string;
      /** `default` when no positional named the hank and `hank.json` in cwd was assumed. */
      readonly hankFrom: "argument" | "default";
    }
  | { readonly ok: false; readonly message: string };

export const DEFAULT_HANK_FILE = "hank.json";

const REMOTE = /^(?:https?:\/\/|git@|git\+)/;

export function resolvePositionals(
  args: readonly string[],
  cwd: string,
  /** The hank is named another way (`--config`), so a lone positional can only be the data. */
  hankElsewhere = false,
): PositionalResolution {
  if (args.length > 2) {
    return {
      ok: false,
      message: `Too many positional arguments. Expected at most 2 (hank-path, data-path), got ${args.length}.`,
    };
  }
  const [first, second] = args;
  const defaultHank = path.resolve(cwd, DEFAULT_HANK_FILE);
  if (first === undefined) return { ok: true, hank: defaultHank, hankFrom: "default" };
  if (second !== undefined) {
    return {
      ok: true,
      hank: hankLocation(first, cwd),
      data: path.resolve(cwd, second),
      hankFrom: "argument",
    };
  }
  if (looksLikeHank(first, cwd)) return { ok: true, hank: hankLocation(first, cwd), hankFrom: "argument" };
  const data = path.resolve(cwd, first);
  if (!hankElsewhere && !exists(data) && !exists(defaultHank))
    return { ok: false, message: missingLoneArgument(first, data) };
  return { ok: true, hank: defaultHank, data, hankFrom: "default" };
}

/**
 * A lone argument that names nothing, with no hank.json in the cwd to run it as data with: most likely
 * a mistyped hank path, so the message names the argument as typed (not the assumed hank.json).
 */
function missingLoneArgument(arg: string, absolute: string): string {
  const near = nearNames(path.dirname(absolute), path.basename(absolute));
  const guess =
    near.length === 0
      ? ""
      : ` Did you mean ${near.map((n) => path.join(path.dirname(arg), n)).join(" or ")}?`;
  return `'${arg}' does not exist, and there is no ${DEFAULT_HANK_FILE} in the current directory to use it as data with.${guess} Pass a hank file (or a directory that contains ${DEFAULT_HANK_FILE}), then the data path.`;
}

function exists(target: string): boolean {
  try {
    fs.statSync(target);
    return true;
  } catch {
    return false;
  }
}

/** True when a single positional names a hank rather than data. */
export function looksLikeHank(arg: string, cwd: string): boolean {
  const lower = arg.toLowerCase();
  if (arg === "-" || REMOTE.test(arg)) return true;
  if (lower.endsWith(".json") || lower.endsWith(".hank") || lower.endsWith(".tar.zst")) return true;
  try {
    return fs.statSync(path.join(path.resolve(cwd, arg), DEFAULT_HANK_FILE)).isFile();
  } catch {
    return false;
  }
}

function hankLocation(arg: string, cwd: string): string {
  return arg === "-" || REMOTE.test(arg) ? arg : path.resolve(cwd, arg);
}
