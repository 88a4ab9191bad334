import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolEffects } from "../harness.ts";

/** The pi tools a session gets: the four that work offline (grep and find download binaries). */
export const PI_TOOLS = ["read", "bash", "edit", "write"] as const;

/** What each pi tool may change: read nothing, write/edit the file they name, bash anything. */
export function toolEffects(toolName: string): ToolEffects {
  if (toolName === "read") return "none";
  if (toolName === "write" || toolName === "edit") return "reported-files";
  return "unknown";
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Tool arguments as a plain record (pi passes the parsed JSON object). */
export function argsRecord(args: unknown): Readonly<Record<string, unknown>> {
  return isRecord(args) ? args : {};
}

/** The `path` argument of a write or edit call, when it has one. */
export function pathArgument(args: unknown): string | undefined {
  const path = argsRecord(args).path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/**
 * Where a pi file tool writes, as pi resolves it (a leading `@` dropped, `~` expanded, relative to the
 * working directory); returned as a workspace-relative `/` path, or undefined when it is outside.
 */
export function resolveToolPath(cwd: string, path: string): { absolute: string; relative?: string } {
  const bare = path.startsWith("@") ? path.slice(1) : path;
  const expanded = bare === "~" ? homedir() : bare.startsWith("~/") ? homedir() + bare.slice(1) : bare;
  const absolute = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  const rel = relative(cwd, absolute);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return { absolute };
  return { absolute, relative: rel.split(sep).join("/") };
}

/** The text a tool returned to the model: its text blocks joined, images as a placeholder. */
export function toolResultText(result: unknown): string {
  if (!isRecord(result) || !Array.isArray(result.content)) return "";
  const parts: string[] = [];
  for (const block of result.content) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "image") parts.push("[image]");
  }
  return parts.join("\n");
}
