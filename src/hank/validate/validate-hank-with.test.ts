import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codon, hankOf, loop, loopCodon, RICH_FIXTURE_DIR } from "./test-kit.ts";
import { validateHank } from "./validate-hank.ts";
import { mayDeclareSentinels, NO_SENTINELS, validateHankWith } from "./validate-hank-with.ts";
import type { ValidationContext } from "./validation-types.ts";

const context: ValidationContext = {
  hankPath: `${RICH_FIXTURE_DIR}/hank.json`,
  hankDir: RICH_FIXTURE_DIR,
  env: {},
  findTool: () => true,
};
const sentinel = { sentinelConfig: "sentinels/watch.json" };

describe("mayDeclareSentinels", () => {
  it("finds a sentinels field on a codon, inside a loop, and on a broken item", () => {
    assert.equal(mayDeclareSentinels(hankOf([codon("a", { sentinels: [sentinel] })])), true);
    assert.equal(mayDeclareSentinels(hankOf([loop("l", [loopCodon("b", { sentinels: [] })])])), true);
    assert.equal(mayDeclareSentinels(hankOf([{ type: "codon", sentinels: "x" }])), true);
  });

  it("finds none in a hank without one", () => {
    assert.equal(mayDeclareSentinels(hankOf([codon("a"), loop("l", [loopCodon("b")])])), false);
    assert.equal(mayDeclareSentinels("not a hank"), false);
  });
});

describe("validateHankWith NO_SENTINELS", () => {
  it("reports what validateHank reports for a hank without sentinels", () => {
    const raws = [
      hankOf([codon("a"), loop("l", [loopCodon("b"), loopCodon("c", { model: "nope" })])]),
      hankOf([codon("a", { trackedFiles: ["x"] })], { outputFiles: [] }),
    ];
    for (const raw of raws) {
      assert.equal(mayDeclareSentinels(raw), false);
      assert.deepEqual(validateHankWith(raw, context, NO_SENTINELS), validateHank(raw, context));
    }
  });

  it("leaves out exactly the sentinel checks, so a hank with sentinels needs the real stage", () => {
    const raw = hankOf([codon("a", { sentinels: [{ sentinelConfig: "missing.json" }] })]);
    const real = validateHank(raw, context).issues.map((issue) => issue.code);
    const without = validateHankWith(raw, context, NO_SENTINELS).issues.map((issue) => issue.code);
    assert.ok(real.length > without.length);
  });
});
