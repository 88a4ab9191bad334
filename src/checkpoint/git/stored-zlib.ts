/**
 * zlib streams made of stored blocks: the bytes as they are, framed by RFC 1950's header and Adler-32
 * and RFC 1951's stored-block headers. Git writes loose objects so with `core.looseCompression 0`, and
 * every inflater reads them. Framing a small object costs a copy; compressing it costs a zlib state
 * (30-45 us per object in a run, most of it setting up and clearing that state).
 */

/** The largest stored block. */
const MAX_BLOCK = 0xffff;
/** Adler-32's modulus, and how many bytes its sums take before they must be reduced (zlib's NMAX). */
const ADLER_BASE = 65521;
const ADLER_NMAX = 5552;
/** CMF 0x78 (deflate, 32 KB window) and FLG 0x01 (fastest level, no dictionary, check bits). */
const HEADER = [0x78, 0x01];

/** `bytes` as a zlib stream of stored blocks. */
export function storedZlib(bytes: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(bytes.length / MAX_BLOCK));
  const out = Buffer.alloc(2 + blocks * 5 + bytes.length + 4);
  out[0] = HEADER[0] ?? 0;
  out[1] = HEADER[1] ?? 0;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * MAX_BLOCK;
    const length = Math.min(MAX_BLOCK, bytes.length - start);
    out[at] = block === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    bytes.copy(out, at + 5, start, start + length);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(bytes), at);
  return out;
}

/**
 * The content of a zlib stream made only of stored blocks, checked (header, block lengths, Adler-32,
 * nothing after the end); undefined for any other stream, which the caller inflates.
 */
export function readStoredZlib(stream: Buffer): Buffer | undefined {
  const cmf = stream[0] ?? 0;
  const flg = stream[1] ?? 0;
  if ((cmf & 0x0f) !== 8 || (cmf * 256 + flg) % 31 !== 0 || (flg & 0x20) !== 0) return undefined;
  const parts: Buffer[] = [];
  let at = 2;
  for (;;) {
    const head = stream[at];
    if (head === undefined || (head & 0x06) !== 0 || at + 5 > stream.length) return undefined;
    const length = stream.readUInt16LE(at + 1);
    if ((stream.readUInt16LE(at + 3) ^ 0xffff) !== length || at + 5 + length > stream.length)
      return undefined;
    parts.push(stream.subarray(at + 5, at + 5 + length));
    at += 5 + length;
    if ((head & 1) === 1) break;
  }
  if (at + 4 !== stream.length) return undefined;
  const content = parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts);
  return stream.readUInt32BE(at) === adler32(content) ? content : undefined;
}

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < bytes.length; start += ADLER_NMAX) {
    const end = Math.min(bytes.length, start + ADLER_NMAX);
    for (let i = start; i < end; i++) {
      a += bytes[i] ?? 0;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}
