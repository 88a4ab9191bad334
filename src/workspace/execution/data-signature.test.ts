import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareNames, contentDigest, type DataEntry, metadataDigest } from "./data-signature.ts";

const entries: DataEntry[] = [
  { kind: "directory", path: "a" },
  { kind: "file", path: "a/x.txt", size: 3, mtimeMs: 1000.7 },
  { kind: "symlink", path: "l", target: "a/x.txt" },
];

describe("data signatures", () => {
  it("pins the content digest format (a change here invalidates every stored data hash)", () => {
    // sha256 of "hankweave-data-v1 content\n" then one JSON array per entry and line.
    const hashes = new Map([["a/x.txt", "f".repeat(64)]]);
    assert.equal(
      contentDigest(entries, hashes),
      "c456baacc7b7388ea1c4450232b046fa6dba3f24fbcb7ad2fa1e7d265adb2838",
    );
    assert.equal(metadataDigest(entries), "3ca3888c6cd7fc8ce512b9b718fc299b69b0c6b69be55e0f659766b4e5d9e398");
  });

  it("keeps content and metadata digests apart and ignores sub-millisecond mtimes", () => {
    const truncated: DataEntry[] = entries.map((e) => (e.kind === "file" ? { ...e, mtimeMs: 1000 } : e));
    assert.equal(metadataDigest(truncated), metadataDigest(entries));
    const touched: DataEntry[] = entries.map((e) => (e.kind === "file" ? { ...e, mtimeMs: 2000 } : e));
    assert.notEqual(metadataDigest(touched), metadataDigest(entries));
  });

  it("cannot be forged by names containing newlines", () => {
    const one: DataEntry[] = [{ kind: "directory", path: 'a"]\n["directory","b' }];
    const two: DataEntry[] = [
      { kind: "directory", path: "a" },
      { kind: "directory", path: "b" },
    ];
    assert.notEqual(metadataDigest(one), metadataDigest(two));
  });

  it("throws on a file without a content hash (a caller bug)", () => {
    assert.throws(() => contentDigest(entries, new Map()), /no content hash for a\/x.txt/);
  });

  it("sorts by code unit, not locale", () => {
    assert.deepEqual(["b", "B", "a", "_", "Z"].sort(compareNames), ["B", "Z", "_", "a", "b"]);
  });
});
