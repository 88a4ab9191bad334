import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readlink } from "node:fs/promises";
import type { WorkspaceEntryKind } from "../outputs/index.ts";

export interface EntryDigest {
  readonly sizeBytes: number;
  /** Lowercase hex. */
  readonly sha256: string;
}

/**
 * Size and SHA-256 of a file's content, streamed (archived files can be large), or of a symbolic
 * link's target text (the link is never followed). Rejects with the filesystem error.
 */
export async function entryDigest(path: string, kind: WorkspaceEntryKind): Promise<EntryDigest> {
  const hash = createHash("sha256");
  if (kind === "symlink") {
    const target = Buffer.from(await readlink(path), "utf8");
    return { sizeBytes: target.length, sha256: hash.update(target).digest("hex") };
  }
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    sizeBytes += bytes.length;
    hash.update(bytes);
  }
  return { sizeBytes, sha256: hash.digest("hex") };
}
