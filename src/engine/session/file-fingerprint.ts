import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

/** The v2 `file.updated` facts of a workspace file: its hash and size, never its content. */
export interface FileFingerprint {
  readonly filename: string;
  readonly sha256?: string;
  readonly bytes?: number;
}

/** Reads a changed file once to hash it. A file gone by now (or unreadable) gets no hash. */
export function fingerprintFile(agentRoot: string, relativePath: string, deleted: boolean): FileFingerprint {
  const filename = basename(relativePath);
  if (deleted) return { filename };
  try {
    const content = readFileSync(join(agentRoot, relativePath));
    return {
      filename,
      sha256: createHash("sha256").update(content).digest("hex"),
      bytes: content.byteLength,
    };
  } catch {
    return { filename };
  }
}
