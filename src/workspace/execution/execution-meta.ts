import { readFileSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { errorCode, isNotFound } from "./fs-errors.ts";

/**
 * `.hankweave/execution-meta.json`: what an execution was created from, so a later start can find it
 * again (same data hash) and notice a changed hank (different hank hash). Field names follow the
 * reference layout (version 1.1.0); `dataHashMethod` is ours and optional.
 */
export const EXECUTION_META_VERSION = "1.1.0";

export const ExecutionMetaSchema = z.object({
  version: z.string(),
  /** The data path as the user gave it. */
  readOnlySourceDataPath: z.string(),
  /** The same path made absolute with links resolved: what `read_only_data_source` points at. */
  resolvedSourceDataPath: z.string(),
  dataHash: z.string(),
  dataHashMethod: z.enum(["content", "metadata"]).optional(),
  hankPath: z.string(),
  /** Absent in metas written before hank hashes existed; such an execution never counts as changed. */
  hankHash: z.string().optional(),
  /** Ours: the hank's codon ids (loop codons included), to say what an edited hank added or removed. */
  codonIds: z.array(z.string()).optional(),
  linkType: z.enum(["symlink", "copy"]),
  createdAt: z.string(),
  lastUsed: z.string(),
  hankweaveVersion: z.string(),
  /** The command-line arguments of the invocation that created or last resumed the execution. */
  invocation: z.array(z.string()),
  platform: z.string(),
  arch: z.string(),
  /** e.g. "node v20.20.2". */
  runtime: z.string(),
});
export type ExecutionMeta = z.infer<typeof ExecutionMetaSchema>;

export type MetaRead =
  | { readonly status: "ok"; readonly meta: ExecutionMeta }
  | { readonly status: "missing" }
  | { readonly status: "invalid"; readonly message: string };

export function readExecutionMeta(metaPath: string): MetaRead {
  let text: string;
  try {
    text = readFileSync(metaPath, "utf8");
  } catch (error) {
    if (isNotFound(error) || errorCode(error) === "ENOTDIR") return { status: "missing" };
    return { status: "invalid", message: `cannot read ${metaPath}: ${errorCode(error)}` };
  }
  return parseExecutionMeta(text);
}

export function parseExecutionMeta(text: string): MetaRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { status: "invalid", message: "execution-meta.json is not valid JSON" };
  }
  const parsed = ExecutionMetaSchema.safeParse(raw);
  if (parsed.success) return { status: "ok", meta: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` at ${first.path.join(".")}` : "";
  return {
    status: "invalid",
    message: `execution-meta.json is malformed${where}: ${first?.message ?? "invalid"}`,
  };
}

/** Writes the meta atomically (temp file + rename); `tag` names the temp file (use the pid). */
export function writeExecutionMeta(metaPath: string, meta: ExecutionMeta, tag: string | number): void {
  writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`, tag);
}

/** The facts of this process that every meta records. */
export interface ExecutionHost {
  readonly hankweaveVersion: string;
  readonly invocation: readonly string[];
  readonly platform: string;
  readonly arch: string;
  readonly runtime: string;
}

/** The host facts of the running process; `invocation` is what followed the binary on the command line. */
export function currentHost(hankweaveVersion: string, invocation: readonly string[]): ExecutionHost {
  return {
    hankweaveVersion,
    invocation,
    platform: process.platform,
    arch: process.arch,
    runtime: `node ${process.version}`,
  };
}

export interface MetaFacts {
  readonly dataPath: string;
  readonly resolvedDataPath: string;
  readonly dataHash: string;
  readonly dataHashMethod: "content" | "metadata";
  readonly hankPath: string;
  readonly hankHash: string;
  readonly codonIds?: readonly string[];
  readonly linkType: "symlink" | "copy";
  readonly host: ExecutionHost;
  /** ISO time of this start: `lastUsed`, and `createdAt` of a new execution. */
  readonly now: string;
  /** The meta being resumed, whose `createdAt` is kept. */
  readonly previous?: ExecutionMeta;
}

/** Pure: the meta to write for a new or resumed execution. */
export function buildExecutionMeta(facts: MetaFacts): ExecutionMeta {
  return {
    version: EXECUTION_META_VERSION,
    readOnlySourceDataPath: facts.dataPath,
    resolvedSourceDataPath: facts.resolvedDataPath,
    dataHash: facts.dataHash,
    dataHashMethod: facts.dataHashMethod,
    hankPath: facts.hankPath,
    hankHash: facts.hankHash,
    ...(facts.codonIds !== undefined && { codonIds: [...facts.codonIds] }),
    linkType: facts.linkType,
    createdAt: facts.previous?.createdAt ?? facts.now,
    lastUsed: facts.now,
    hankweaveVersion: facts.host.hankweaveVersion,
    invocation: [...facts.host.invocation],
    platform: facts.host.platform,
    arch: facts.host.arch,
    runtime: facts.host.runtime,
  };
}
