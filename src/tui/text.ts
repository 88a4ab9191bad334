/** Small text helpers of the TUI: one line, bounded width, plain ASCII-friendly symbols. */

import { groupThousands } from "../util/group-thousands.ts";

/** The TUI never draws wider than this, whatever the terminal. */
export const MAX_WIDTH = 120;

export function tuiWidth(columns: number | undefined): number {
  return Math.max(40, Math.min(columns ?? 80, MAX_WIDTH));
}

/** `text` on one line (line breaks and tabs become spaces), cut to `width` with an ellipsis. */
export function oneLine(text: string, width: number): string {
  const line = text.replace(/[\r\n\t]+/g, " ").trimEnd();
  if (line.length <= width) return line;
  return width <= 1 ? line.slice(0, width) : `${line.slice(0, width - 1)}…`;
}

/**
 * A line folded to `width` columns instead of cut: the parts after the first are indented by `indent`
 * spaces (under the value of a `Label      value` line), so a path or a command stays whole to copy.
 */
export function foldLine(text: string, width: number, indent: number): string[] {
  const line = text.replace(/[\r\n\t]+/g, " ").trimEnd();
  if (line.length <= width || width <= indent + 1) return [line.slice(0, Math.max(width, 1))];
  const parts = [line.slice(0, width)];
  const room = width - indent;
  for (let at = width; at < line.length; at += room)
    parts.push(`${" ".repeat(indent)}${line.slice(at, at + room)}`);
  return parts;
}

export function seconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const rest = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes}m${String(rest).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

export function dollars(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

export function count(n: number): string {
  return groupThousands(n);
}

/**
 * A tool call on one line: the tool and its most telling argument (a command, a path, a pattern), so
 * a long loop's activity stays readable.
 */
export function toolSummary(toolName: string, input: unknown): string {
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  for (const key of ["command", "file_path", "path", "pattern", "url", "query", "description"]) {
    const value = fields[key];
    if (typeof value === "string" && value !== "") return `${toolName} ${value}`;
  }
  return toolName;
}
