import { writeSync } from "node:fs";

/**
 * Writes `bytes` from offset `from` on at the file's current position, looping until all are written:
 * a write may take fewer bytes than asked (a signal, a full pipe, a nearly full disk).
 */
export function writeAll(fd: number, bytes: Buffer, from = 0): void {
  let done = from;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}
