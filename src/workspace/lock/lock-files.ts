import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorCode, isNotFound } from "../execution/fs-errors.ts";

/**
 * The file operations under the runtime lock. Each is a single step whose atomicity the lock relies on;
 * the decisions (live or stale, ours or not) live in `lock-record.ts` and `runtime-lock.ts`.
 */

/** Exclusive, atomic create. Falls back to a `wx` open where hard links are unsupported. */
export function createExclusive(path: string, text: string, pid: number): boolean {
  const temp = join(dirname(path), `.${basename(path)}.${pid}.new`);
  writeFileSync(temp, text);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    return createWithOpenFlag(path, text);
  } finally {
    unlinkSync(temp);
  }
}

function createWithOpenFlag(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: "wx" });
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

/**
 * Moves a stale lock out of the way. Rename is atomic, so of two processes taking over the same stale
 * lock only one moves it; if what was moved is no longer the text judged stale (another process replaced
 * it meanwhile), it is put back and the caller starts over.
 */
export function moveAside(path: string, judgedText: string, pid: number): boolean {
  const aside = join(dirname(path), `.${basename(path)}.${pid}.stale`);
  try {
    renameSync(path, aside);
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  const moved = readText(aside);
  if (moved === judgedText) {
    unlinkSync(aside);
    return true;
  }
  try {
    linkSync(aside, path);
  } catch {
    // A third process created a lock meanwhile; the moved lock's owner notices at its next heartbeat.
  }
  unlinkSync(aside);
  return false;
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
