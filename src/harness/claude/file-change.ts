import { isAbsolute, normalize, relative, sep } from "node:path";
import type { ToolEffects } from "../harness.ts";
import { asRecord, type JsonRecord, stringField } from "./json-fields.ts";

export interface FileChange {
  readonly path: string;
  readonly action: "created" | "modified" | "deleted";
}

/** Claude Code's file tools and the input field that names the file. */
const FILE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/** Claude Code's tools that only read (files, the web) or keep the agent's own notes. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "ToolSearch",
]);

/**
 * What a tool call may change in the workspace: read-only tools nothing, the file tools only the file
 * they report, anything else (Bash, subagents, skills, MCP tools) anything.
 */
export function toolEffects(toolName: string): ToolEffects {
  if (READ_ONLY_TOOLS.has(toolName)) return "none";
  return FILE_TOOLS[toolName] === undefined ? "unknown" : "reported-files";
}

/**
 * The file a successful file-tool call changed, as a workspace-relative `/` path; undefined for other
 * tools and for files outside the workspace. Write reports `created` when its structured result says
 * it created the file (`tool_use_result.type === "create"`), otherwise every change is `modified`.
 * Changes made through Bash are not seen here; the checkpoint finds them.
 */
export function fileChangeOf(
  toolName: string,
  input: JsonRecord,
  toolUseResult: unknown,
  cwd: string,
): FileChange | undefined {
  const key = FILE_TOOLS[toolName];
  const target = key === undefined ? undefined : stringField(input, key);
  if (target === undefined || target === "") return undefined;
  const rel = isAbsolute(target) ? relative(cwd, target) : normalize(target);
  if (rel === "" || rel === "." || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return undefined;
  }
  const created = toolName === "Write" && asRecord(toolUseResult).type === "create";
  return { path: rel.split(sep).join("/"), action: created ? "created" : "modified" };
}
