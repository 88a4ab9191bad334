import { LIMITS } from "./members.ts";
import { zstdBound } from "./zstd-bound.ts";

/**
 * What reading a bundle may cost, checked on its zstd headers before anything is decompressed or
 * written (see zstd-bound). `pack` refuses more than `LIMITS` holds; a tar adds at most 1 KiB per member
 * (header and padding) and 1 KiB at its end. Beyond `RATIO_FLOOR_BYTES`, content more than `MAX_RATIO`
 * times its compressed size is a decompression bomb: text compresses tens of times at most.
 */
export const READ_LIMITS = {
  contentBytes: LIMITS.totalBytes + (LIMITS.files + 1) * 1024,
  maxRatio: 1000,
  ratioFloorBytes: 64 * 1024 ** 2,
} as const;

/** Why the bundle's bytes may not be decompressed, as the middle of a message; undefined when they may. */
export function readLimitProblem(bytes: Uint8Array): string | undefined {
  const bound = zstdBound(bytes);
  if (!bound.ok) return `not a hank bundle (zstd-compressed tar): ${bound.reason}`;
  if (bound.bytes > READ_LIMITS.contentBytes) {
    return `it would decompress to ${mib(bound.bytes)}, more than a bundle may hold (${mib(READ_LIMITS.contentBytes)})`;
  }
  const ratio = bound.bytes / Math.max(bytes.byteLength, 1);
  if (bound.bytes > READ_LIMITS.ratioFloorBytes && ratio > READ_LIMITS.maxRatio) {
    return `it would decompress to ${mib(bound.bytes)} from ${bytes.byteLength} bytes (${Math.round(ratio)} times its size, a decompression bomb)`;
  }
  return undefined;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}
