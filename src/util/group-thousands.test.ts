import assert from "node:assert/strict";
import { test } from "node:test";
import { groupThousands } from "./group-thousands.ts";

test("groupThousands writes integers as toLocaleString('en-US') does", () => {
  for (const n of [0, 7, 999, 1000, 9680, 65_536, 1_000_000, 123_456_789, -1234, -999]) {
    assert.equal(groupThousands(n), n.toLocaleString("en-US"), String(n));
  }
  assert.equal(groupThousands(1234.5), "1,234.5");
});
