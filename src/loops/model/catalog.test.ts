import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type CatalogRun, catalogEntries, successText } from "./catalog.ts";

const NOW = Date.parse("2026-06-30T00:00:00Z");
let n = 0;
function run(state: string, cause: string | null, extra: Partial<CatalogRun> = {}): CatalogRun {
  n += 1;
  return { id: `r${n}`, loopId: "l", state, cause, endedAt: "2026-06-29T00:00:00Z", contract: {}, ...extra };
}

describe("catalog figures", () => {
  test("done is the only success; no-op is counted apart and left out of the rate", () => {
    const [entry] = catalogEntries(
      [
        run("no-op", "clean_tick"),
        run("done", "gates_passed"),
        run("failed", "body_failed"),
        run("no-op", "precheck_clean"),
      ],
      NOW,
    );
    assert.equal(entry?.successPercent, 50);
    assert.equal(entry?.noOp, 2);
    assert.equal(entry && successText(entry), "50% done (1 of 2); 2 no-op apart");
    assert.deepEqual(entry?.last, { id: "r1", state: "no-op", cause: "clean_tick" });
  });

  test("only no-op runs: no rate, never 100%", () => {
    const [entry] = catalogEntries([run("no-op", "clean_tick"), run("no-op", "clean_tick")], NOW);
    assert.equal(entry?.successPercent, null);
    assert.equal(entry && successText(entry), "no run counted; 2 no-op apart");
  });

  test("runs that ended over 30 days ago and live runs are not counted; a changed definition is carried", () => {
    const notices = [{ code: "definition-changed", message: "gate.sh changed" }];
    const [entry] = catalogEntries(
      [
        run("running", null, { endedAt: null, contract: { notices } }),
        run("done", "gates_passed", { endedAt: "2026-01-01T00:00:00Z" }),
      ],
      NOW,
    );
    assert.equal(entry?.ended, 0);
    assert.equal(entry?.definitionChanged, "gate.sh changed");
  });
});
