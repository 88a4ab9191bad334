import { readSync } from "node:fs";

/**
 * A system error from reading or writing an open file carries no path: give it the journal's, so a
 * message made from it can name the file (see util/fs-fault). Returns the same error.
 */
export function withPath(error: unknown, path: string): unknown {
  if (error instanceof Error && "code" in error && !("path" in error)) Object.assign(error, { path });
  return error;
}

/** Chunk size for backward reads: one 64 KiB read holds the last few hundred records. */
export const CHUNK_BYTES = 64 * 1024;
const LF = 0x0a;

/** Reads exactly `length` bytes at `position` (a short read means the file shrank under us: a bug). */
function readChunk(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) throw new Error(`journal shrank while reading at byte ${position + done}`);
    done += n;
  }
  return buffer;
}

/**
 * Length of the unterminated fragment after the last LF of the first `size` bytes (0 when the file ends
 * with LF or is empty). Framing rule: a record exists only once its LF is written, so such a fragment is
 * a torn write that was never acknowledged.
 */
export function tornTailLength(fd: number, size: number): number {
  let position = size;
  while (position > 0) {
    const start = Math.max(0, position - CHUNK_BYTES);
    const index = readChunk(fd, start, position - start).lastIndexOf(LF);
    if (index !== -1) return size - (start + index + 1);
    position = start;
  }
  return size;
}

function joined(head: Buffer, rest: Buffer[]): Buffer {
  return rest.length === 0 ? head : Buffer.concat([head, ...rest]);
}

/**
 * Visits the LF-terminated lines of bytes [0, end) from the last to the first, without their LF.
 * `end` must be 0 or just past an LF (see `tornTailLength`). `visit` returns false to stop early.
 * Reads 64 KiB chunks backwards, so the cost depends on how far back the caller looks, not on file size.
 */
export function scanLinesBackward(fd: number, end: number, visit: (line: Buffer) => boolean): void {
  if (end <= 0) return;
  let position = end - 1;
  let pending: Buffer[] = [];
  while (position > 0) {
    const start = Math.max(0, position - CHUNK_BYTES);
    const chunk = readChunk(fd, start, position - start);
    let lineEnd = chunk.length;
    while (lineEnd > 0) {
      const lf = chunk.lastIndexOf(LF, lineEnd - 1);
      if (lf === -1) break;
      if (!visit(joined(chunk.subarray(lf + 1, lineEnd), pending))) return;
      pending = [];
      lineEnd = lf;
    }
    if (lineEnd > 0) pending.unshift(chunk.subarray(0, lineEnd));
    position = start;
  }
  visit(joined(Buffer.alloc(0), pending));
}

/**
 * Splits a byte stream into LF-terminated lines. Only LF frames a record (a bare CR is data), which is
 * why the readers do not use `readline`. Returns whether unterminated bytes were left at the end.
 */
export async function forEachLine(
  chunks: AsyncIterable<Buffer>,
  visit: (line: Buffer) => void,
): Promise<boolean> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    let lf = chunk.indexOf(LF, start);
    while (lf !== -1) {
      const piece = chunk.subarray(start, lf);
      visit(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  return pending.length > 0;
}
