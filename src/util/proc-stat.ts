import { readFileSync } from "node:fs";

/**
 * The fields of Linux's `/proc/<pid>/stat` from the third on (state, ppid, pgrp, ..., starttime at 19),
 * or undefined when it cannot be read (no such process, or no /proc). The command name (field 2) is in
 * parentheses and may hold spaces or parentheses, so the split starts after the last one.
 */
export function procStatFields(pid: number | string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}
