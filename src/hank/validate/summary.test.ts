import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { summarizeHank } from "./summary.ts";
import { RICH_FIXTURE_DIR, run } from "./test-kit.ts";

describe("summarizeHank", () => {
  it("counts the minimal loop fixture like the reference box", () => {
    const dir = path.join(RICH_FIXTURE_DIR, "..", "minimal-loop");
    const report = run(JSON.parse(fs.readFileSync(path.join(dir, "hank.json"), "utf8")), { hankDir: dir });
    assert.ok(report.hank);
    assert.deepEqual(summarizeHank(report.hank, report.prompts), {
      codons: 2,
      loops: 1,
      prompts: 2,
      systemPrompts: 0,
      rigs: 0,
      checkpoints: 2,
    });
  });

  it("counts the rich fixture", () => {
    const report = run(JSON.parse(fs.readFileSync(path.join(RICH_FIXTURE_DIR, "hank.json"), "utf8")), {
      env: { REVIEW_TOKEN: "x" },
    });
    assert.ok(report.hank);
    assert.deepEqual(summarizeHank(report.hank, report.prompts), {
      codons: 4,
      loops: 1,
      prompts: 5,
      systemPrompts: 2,
      rigs: 2,
      checkpoints: 4,
    });
  });
});
