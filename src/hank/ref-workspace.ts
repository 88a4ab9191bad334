import { refEscapePoint } from "./ref-check.ts";
import { quotePath } from "./ref-rules.ts";

/**
 * Pure string checks for paths inside the agent workspace (agentRoot): rig copy targets and the
 * globs of archiveOnSuccess, outputFiles and checkpointedFiles. Nothing here touches the disk; the
 * workspace does not exist yet when a hank is validated.
 */
export type WorkspacePathRule =
  | "empty"
  | "absolute"
  | "escapes-workspace"
  | "backslash"
  | "nul-byte"
  | "reserved"
  | "data-source"
  | "parent-segment";

export type WorkspacePathCheck =
  | {
      readonly ok: true /** `/`-joined, without `.` and empty parts; `.` for agentRoot itself. */;
      readonly normalized: string;
    }
  | { readonly ok: false; readonly rule: WorkspacePathRule; readonly message: string };

/** How to fix each rule; callers put this in the hint. */
export const WORKSPACE_PATH_HINTS: Readonly<Record<WorkspacePathRule, string>> = {
  empty: 'Name a path relative to agentRoot, e.g. "src/" or "notes.md".',
  absolute: "Write the path relative to agentRoot, the agent's working directory.",
  "escapes-workspace": 'Remove the ".." steps; the path must stay inside agentRoot.',
  backslash: 'Write the path with "/" separators.',
  "nul-byte": "Remove the NUL character from the path.",
  reserved: "Choose a target outside .hankweave/ and .git directories.",
  "data-source": "Copy to another directory; read_only_data_source is the user's data and is never written.",
  "parent-segment": 'Remove the ".." segments; name paths from agentRoot downwards.',
};

/** Directory names a copy may never write into, compared case-insensitively (macOS, Windows). */
const RESERVED = new Map([
  [".hankweave", "is reserved for hankweave's own state"],
  [".git", "would write into a git directory"],
]);

/** The read-only link to the input data inside agentRoot. */
export const DATA_SOURCE_DIR = "read_only_data_source";

/**
 * A rig copy `to`: relative to agentRoot, names the full target path. Absolute and escaping targets
 * read "Target path "X" would write outside execution directory"; the rest "Invalid target path "X": ...".
 */
export function checkWorkspaceTarget(to: string): WorkspacePathCheck {
  const quoted = quotePath(to);
  const invalid = (rule: WorkspacePathRule, reason: string): WorkspacePathCheck => ({
    ok: false,
    rule,
    message: `Invalid target path ${quoted}: ${reason}`,
  });
  if (to === "") return invalid("empty", "the path is empty; name a path relative to agentRoot");
  const outside = `Target path ${quoted} would write outside execution directory`;
  if (to.startsWith("/") || /^[A-Za-z]:/.test(to)) return { ok: false, rule: "absolute", message: outside };
  if (to.includes("\\"))
    return invalid("backslash", 'it contains a backslash; use "/" as the only separator');
  if (to.includes("\0")) return invalid("nul-byte", "it contains a NUL byte");
  const parts = to.split("/");
  if (refEscapePoint(parts) !== null) return { ok: false, rule: "escapes-workspace", message: outside };
  for (const part of parts) {
    const reason = RESERVED.get(part.toLowerCase());
    if (reason !== undefined) return invalid("reserved", `"${part}" ${reason}`);
  }
  const normalized = normalizeParts(parts);
  if (normalized.split("/")[0] === DATA_SOURCE_DIR) {
    return invalid("data-source", `${DATA_SOURCE_DIR} is the read-only link to the input data`);
  }
  return { ok: true, normalized };
}

/**
 * A workspace glob (archiveOnSuccess, outputFiles copy, checkpointedFiles): relative to agentRoot,
 * no leading `/`, no `..` component, no backslash (not even as a glob escape), no NUL.
 */
export function checkWorkspaceGlob(glob: string): WorkspacePathCheck {
  const quoted = quotePath(glob);
  const fail = (rule: WorkspacePathRule, reason: string): WorkspacePathCheck => ({
    ok: false,
    rule,
    message: `${quoted} ${reason}`,
  });
  if (glob === "") return fail("empty", "is empty; name a path relative to agentRoot");
  if (glob.startsWith("/") || /^[A-Za-z]:/.test(glob)) {
    return fail("absolute", "is an absolute path; workspace paths are relative to agentRoot");
  }
  if (glob.includes("\\")) return fail("backslash", 'contains a backslash; use "/" as the only separator');
  if (glob.includes("\0")) return fail("nul-byte", "contains a NUL byte");
  const parts = glob.split("/");
  if (parts.includes(".."))
    return fail("parent-segment", 'contains a ".." segment; workspace paths may not leave agentRoot');
  const reserved = parts.find((part) => RESERVED.has(part.toLowerCase()));
  if (reserved !== undefined) {
    return fail("reserved", `names "${reserved}", which hankweave never checkpoints, copies out or archives`);
  }
  return { ok: true, normalized: normalizeParts(parts) };
}

function normalizeParts(parts: readonly string[]): string {
  const kept: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") kept.pop();
    else kept.push(part);
  }
  return kept.join("/") || ".";
}
