/**
 * How many bytes a zstd stream can decompress to, read from its frame and block headers without
 * decompressing anything (RFC 8878). A bundle is checked with this before it is decompressed, so a
 * small file that expands to gigabytes (a decompression bomb) is refused before it takes the memory.
 *
 * For each frame the bound is the larger of its declared content size (the decompressor may allocate
 * that much up front) and what its blocks can produce: a raw or RLE block exactly its size, a
 * compressed block at most min(window, 128 KiB). Skippable frames produce nothing.
 */

export type ZstdBound =
  | { readonly ok: true; readonly bytes: number }
  | { readonly ok: false; readonly reason: string };

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK = 128 * 1024;

export function zstdBound(data: Uint8Array): ZstdBound {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  let total = 0;
  while (at < data.byteLength) {
    if (at + 8 > data.byteLength) return cut();
    const magic = view.getUint32(at, true);
    if ((magic & SKIPPABLE_MASK) === SKIPPABLE_MAGIC >>> 0) {
      at += 8 + view.getUint32(at + 4, true);
      continue;
    }
    if (magic !== FRAME_MAGIC) return { ok: false, reason: "not a zstd frame" };
    const frame = frameBound(view, at + 4);
    if (!frame.ok) return frame;
    total += frame.bytes;
    at = frame.end;
  }
  return at === data.byteLength ? { ok: true, bytes: total } : cut();
}

type Refusal = { readonly ok: false; readonly reason: string };

function cut(): Refusal {
  return { ok: false, reason: "the zstd stream is cut short" };
}

type FrameBound = { readonly ok: true; readonly bytes: number; readonly end: number } | Refusal;

function frameBound(view: DataView, start: number): FrameBound {
  const header = frameHeader(view, start);
  if (header === undefined) return cut();
  let at = header.end;
  let produced = 0;
  const blockMax = Math.min(header.window, MAX_BLOCK);
  for (let last = false; !last; ) {
    if (at + 3 > view.byteLength) return cut();
    const word = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
    last = (word & 1) === 1;
    const type = (word >> 1) & 3;
    const size = word >>> 3;
    if (type === 3) return { ok: false, reason: "a reserved zstd block type" };
    produced += type === 2 ? blockMax : size;
    at += 3 + (type === 1 ? 1 : size);
  }
  at += header.checksum ? 4 : 0;
  if (at > view.byteLength) return cut();
  return { ok: true, bytes: Math.max(produced, header.contentSize ?? 0), end: at };
}

interface FrameHeader {
  readonly window: number;
  readonly contentSize: number | undefined;
  readonly checksum: boolean;
  readonly end: number;
}

function frameHeader(view: DataView, start: number): FrameHeader | undefined {
  const descriptor = view.getUint8(start);
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] ?? 0;
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][sizeFlag] ?? 0;
  let at = start + 1;
  const windowByte = singleSegment ? undefined : view.getUint8(at);
  at += (singleSegment ? 0 : 1) + dictionaryBytes;
  if (at + sizeBytes > view.byteLength) return undefined;
  const contentSize = sizeBytes === 0 ? undefined : readSize(view, at, sizeBytes);
  at += sizeBytes;
  const window = windowByte === undefined ? (contentSize ?? 0) : windowSize(windowByte);
  return { window, contentSize, checksum: (descriptor & 4) !== 0, end: at };
}

function readSize(view: DataView, at: number, bytes: number): number {
  if (bytes === 1) return view.getUint8(at);
  if (bytes === 2) return view.getUint16(at, true) + 256;
  if (bytes === 4) return view.getUint32(at, true);
  return Number(view.getBigUint64(at, true));
}

function windowSize(descriptor: number): number {
  const base = 2 ** (10 + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}
