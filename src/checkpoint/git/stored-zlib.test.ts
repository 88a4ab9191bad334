import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { deflateSync, inflateSync } from "node:zlib";
import { readStoredZlib, storedZlib } from "./stored-zlib.ts";

describe("stored zlib streams", () => {
  it("are read back by zlib and by readStoredZlib, empty, small and across several blocks", () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from("commit 12\0tree abc\n"), randomBytes(200_000)]) {
      const stream = storedZlib(bytes);
      assert.deepEqual(inflateSync(stream), bytes);
      assert.deepEqual(readStoredZlib(stream), bytes);
    }
  });

  it("leaves compressed, damaged or extended streams to zlib", () => {
    const bytes = Buffer.from("blob 6\0hello\n");
    assert.equal(readStoredZlib(deflateSync(bytes)), undefined, "a compressed stream");
    const damaged = storedZlib(bytes);
    damaged[10] = (damaged[10] ?? 0) ^ 1;
    assert.equal(readStoredZlib(damaged), undefined, "content that fails its Adler-32");
    assert.equal(
      readStoredZlib(Buffer.concat([storedZlib(bytes), Buffer.from([0])])),
      undefined,
      "bytes after the end",
    );
    assert.equal(readStoredZlib(storedZlib(bytes).subarray(0, 9)), undefined, "cut short");
    assert.equal(readStoredZlib(Buffer.from([0x1f, 0x8b, 8, 0])), undefined, "not zlib");
  });
});
