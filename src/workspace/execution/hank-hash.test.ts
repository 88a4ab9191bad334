import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { hankHashOf } from "./hank-hash.ts";

const hank = { meta: { name: "demo" }, hank: [{ id: "a", model: "scripted" }] };
const plain = JSON.stringify(hank, null, 2);

describe("hankHashOf", () => {
  it("ignores adding, changing or removing $schema", () => {
    const withSchema = JSON.stringify({ $schema: "https://example.com/hank.schema.json", ...hank }, null, 2);
    const otherSchema = JSON.stringify({ $schema: "./schemas/hank.schema.json", ...hank });
    assert.equal(hankHashOf(withSchema), hankHashOf(plain));
    assert.equal(hankHashOf(otherSchema), hankHashOf(plain));
  });

  it("ignores whitespace and a byte-order mark, but not a changed field", () => {
    assert.equal(hankHashOf(JSON.stringify(hank)), hankHashOf(plain));
    assert.equal(hankHashOf(`\uFEFF${plain}`), hankHashOf(plain));
    const edited = JSON.stringify({ ...hank, hank: [{ id: "a", model: "scripted/other" }] });
    assert.notEqual(hankHashOf(edited), hankHashOf(plain));
  });

  it("accepts bytes and strings alike", () => {
    assert.equal(hankHashOf(Buffer.from(plain, "utf8")), hankHashOf(plain));
  });

  it("hashes the canonical JSON with a prefix, and text that is not JSON as raw bytes", () => {
    const expected = createHash("sha256")
      .update(`hank-json\n${JSON.stringify(hank)}`)
      .digest("hex");
    assert.equal(hankHashOf(plain), expected);
    const broken = "{ not json";
    const raw = createHash("sha256").update(`hank-raw\n${broken}`).digest("hex");
    assert.equal(hankHashOf(broken), raw);
    assert.notEqual(hankHashOf("{ not json "), raw);
  });
});
