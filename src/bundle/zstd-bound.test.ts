import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compress } from "@mongodb-js/zstd";
import { readLimitProblem } from "./read-limits.ts";
import { zstdBound } from "./zstd-bound.ts";

/** A zstd frame declaring `declared` bytes of content (8-byte size field) holding `rleBlocks` RLE blocks of 128 KiB. */
function frame(declared: bigint, rleBlocks: number): Buffer {
  const header = Buffer.alloc(4 + 1 + 1 + 8);
  header.writeUInt32LE(0xfd2fb528, 0);
  header.writeUInt8(0xc0, 4); // 8-byte content size, not single-segment, no checksum, no dictionary
  header.writeUInt8(0x38, 5); // window 2^(10+7) = 128 KiB
  header.writeBigUInt64LE(declared, 6);
  const blocks = Array.from({ length: rleBlocks }, (_, index) => {
    const last = index === rleBlocks - 1 ? 1 : 0;
    const word = last | (1 << 1) | ((128 * 1024) << 3);
    return Buffer.from([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, 0]);
  });
  return Buffer.concat([header, ...blocks]);
}

describe("zstdBound", () => {
  it("matches what real streams decompress to: content size, or the blocks' bound", async () => {
    for (const content of [
      Buffer.alloc(0),
      Buffer.alloc(5_000_000),
      Buffer.from("hankweave ".repeat(9000)),
    ]) {
      const bound = zstdBound(await compress(content, 19));
      assert.ok(bound.ok && bound.bytes >= content.length, JSON.stringify(bound));
    }
  });

  it("takes the larger of a declared size and the blocks, and refuses a cut or foreign stream", () => {
    assert.deepEqual(zstdBound(frame(3n * 1024n ** 3n, 2)), { ok: true, bytes: 3 * 1024 ** 3 });
    assert.deepEqual(zstdBound(frame(1n, 3)), { ok: true, bytes: 3 * 128 * 1024 });
    assert.equal(zstdBound(frame(1n, 3).subarray(0, 20)).ok, false);
    assert.equal(zstdBound(Buffer.from("PK\u0003\u0004 not zstd")).ok, false);
  });
});

describe("readLimitProblem", () => {
  it("refuses a frame that declares 3 GiB from its header alone", () => {
    assert.match(
      readLimitProblem(frame(3n * 1024n ** 3n, 1)) ?? "",
      /^it would decompress to 3072\.0 MiB, more than a bundle may hold/,
    );
  });
});
