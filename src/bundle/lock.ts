import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "./canonical-json.ts";

/** The lock's file name, the archive's first member and (unless `--no-lock`) a file beside hank.json. */
export const LOCK_FILE = "hank.lock";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex sha256");

/** A member's permissions: regular files only, executable or not. */
const Mode = z.enum(["644", "755"]);

const LockedFile = z.strictObject({ mode: Mode, sha256: Sha256 });

/**
 * `hank.lock`: what a bundle holds, and the digest (`bundleHash`) that names it. `files` is the exact
 * member set; `codonInputs` is one digest per codon over its definition and every member it refers to,
 * so a changed prompt shows which codons it touches; `runtime.min` is the oldest hankweave that may run it.
 */
export const HankLock = z.strictObject({
  v: z.literal(1),
  name: z.string().min(1),
  version: z.string().min(1),
  bundleHash: Sha256,
  files: z.record(z.string(), LockedFile),
  codonInputs: z.record(z.string(), Sha256),
  runtime: z.strictObject({ min: z.string().regex(/^\d+\.\d+\.\d+/, "a semver such as 0.12.0") }),
  ignoreDefaults: z.array(z.string()),
});
export type HankLock = z.infer<typeof HankLock>;
export type LockedFile = z.infer<typeof LockedFile>;

/** `sha256hex("hankweave-bundle-v1\0" + canonical({v, files, runtime}))`: names the bundle's content. */
export function bundleHashOf(files: HankLock["files"], runtime: HankLock["runtime"]): string {
  const body = canonicalJson({ v: 1, files, runtime });
  return createHash("sha256").update(`hankweave-bundle-v1\0${body}`, "utf8").digest("hex");
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The lock's bytes: canonical JSON and one newline. */
export function lockText(lock: HankLock): string {
  return `${canonicalJson(lock)}\n`;
}

export function modeOf(executable: boolean): LockedFile["mode"] {
  return executable ? "755" : "644";
}

/** Numeric permission bits for a locked mode. */
export function modeBits(mode: LockedFile["mode"]): number {
  return mode === "755" ? 0o755 : 0o644;
}

/** Orders two `x.y.z` versions (pre-release tags ignored): negative when `a` is older. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (v.match(/^(\d+)\.(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index++) {
    const diff = (left[index] ?? 0) - (right[index] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
