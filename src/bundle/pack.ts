import fs from "node:fs";
import path from "node:path";
import { formatJsonPath, type ValidationIssue } from "../hank/issues.ts";
import { loadHankFile } from "../hank/load.ts";
import { validateHank } from "../hank/validate/index.ts";
import { writeArchive } from "./archive.ts";
import { codonInputs } from "./codon-inputs.ts";
import { bundleHashOf, type HankLock, LOCK_FILE, lockText, modeBits, modeOf, sha256Hex } from "./lock.ts";
import { IGNORE_DEFAULTS, type Member, scanMembers } from "./members.ts";
import { readLimitProblem } from "./read-limits.ts";

/** What `pack --check` reports and `pack` builds from. `errors` empty means it can be packed. */
export interface PackPlan {
  readonly hankPath: string;
  readonly hankDir: string;
  readonly meta: { readonly name?: string; readonly version?: string };
  readonly members: readonly Member[];
  readonly codonInputs: Record<string, string>;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Lints a hank for packing: it must load and validate (structure, refs; not the packer's keys or
 * installed SDKs, which are the runner's concern), hold only regular files within the limits, and
 * refer to nothing outside its directory.
 */
export function planPack(
  target: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): PackPlan | string {
  const loaded = loadHankFile(target, cwd);
  if (!loaded.ok) return issueLine(loaded.issue);
  const report = validateHank(loaded.raw, { hankPath: loaded.hankPath, hankDir: loaded.hankDir, env });
  const errors = report.issues.filter((issue) => issue.severity === "error").map(issueLine);
  const warnings = report.issues.filter((issue) => issue.severity !== "error").map(issueLine);
  const scan = scanMembers(loaded.hankDir);
  const digests = new Map(
    scan.members.map((member) => [member.name, sha256Hex(fs.readFileSync(member.absolute))]),
  );
  const inputs = codonInputs(loaded.raw, loaded.hankDir, digests);
  return {
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    meta: metaOf(loaded.raw),
    members: scan.members,
    codonInputs: inputs.digests,
    errors: [...errors, ...scan.errors, ...inputs.errors],
    warnings,
  };
}

export interface BuiltBundle {
  readonly lock: HankLock;
  readonly lockText: string;
  readonly bytes: Buffer;
}

/** Reads the members once more, locks them and writes the archive: `hank.lock` first, then bytewise order. */
export async function buildBundle(plan: PackPlan, minRuntime: string): Promise<BuiltBundle> {
  const contents = plan.members.map((member) => ({ member, bytes: fs.readFileSync(member.absolute) }));
  const files: HankLock["files"] = {};
  for (const { member, bytes } of contents)
    files[member.name] = { mode: modeOf(member.executable), sha256: sha256Hex(bytes) };
  const runtime = { min: minRuntime };
  const bundleHash = bundleHashOf(files, runtime);
  const lock: HankLock = {
    v: 1,
    name: plan.meta.name ?? `hank-${bundleHash.slice(0, 12)}`,
    version: plan.meta.version ?? "0.0.0",
    bundleHash,
    files,
    codonInputs: plan.codonInputs,
    runtime,
    ignoreDefaults: [...IGNORE_DEFAULTS],
  };
  const text = lockText(lock);
  const archive = [
    { name: LOCK_FILE, mode: 0o644, bytes: Buffer.from(text, "utf8") },
    ...contents.map(({ member, bytes }) => ({
      name: member.name,
      mode: modeBits(modeOf(member.executable)),
      bytes,
    })),
  ];
  const bytes = await writeArchive(archive);
  // Never write a bundle that reading refuses.
  const tooLarge = readLimitProblem(bytes);
  if (tooLarge !== undefined)
    throw new Error(
      `the bundle would be refused when read: ${tooLarge}. Move large or repetitive data out of the hank`,
    );
  return { lock, lockText: text, bytes };
}

/** `<slug(meta.name)>-<meta.version | unversioned>.hank`, the reference's default bundle name. */
export function defaultBundleName(meta: PackPlan["meta"], hankDir: string): string {
  const base = meta.name ?? path.basename(hankDir);
  const slug =
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "hank";
  return `${slug}-${meta.version ?? "unversioned"}.hank`;
}

function metaOf(raw: unknown): PackPlan["meta"] {
  const meta = raw !== null && typeof raw === "object" ? (raw as { meta?: unknown }).meta : undefined;
  if (meta === null || typeof meta !== "object") return {};
  const { name, version } = meta as { name?: unknown; version?: unknown };
  return {
    ...(typeof name === "string" && name !== "" && { name }),
    ...(typeof version === "string" && version !== "" && { version }),
  };
}

function issueLine(issue: ValidationIssue): string {
  const at = issue.path.length === 0 ? "" : ` at ${formatJsonPath(issue.path)}`;
  const file = issue.file === undefined ? "" : `${issue.file}: `;
  return `${file}${issue.message}${at}. ${issue.hint}`;
}
