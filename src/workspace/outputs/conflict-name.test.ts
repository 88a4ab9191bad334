import assert from "node:assert/strict";
import { test } from "node:test";
import { conflictName, unixSecondsOf } from "./conflict-name.ts";

test("a renamed name is name_<counter>_<unixSeconds>.ext, only the last extension kept apart", () => {
  assert.equal(conflictName("report.md", 1, 1_700_000_000), "report_1_1700000000.md");
  assert.equal(conflictName("report.md", 100, 5), "report_100_5.md");
  assert.equal(conflictName("bundle.tar.gz", 2, 7), "bundle.tar_2_7.gz");
  assert.equal(conflictName("Makefile", 1, 7), "Makefile_1_7");
  assert.equal(conflictName(".env", 1, 7), ".env_1_7");
});

test("unix seconds are whole seconds, rounded down", () => {
  assert.equal(unixSecondsOf(1_700_000_000_999), 1_700_000_000);
  assert.equal(unixSecondsOf(0), 0);
});
