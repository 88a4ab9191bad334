import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LoopRunRecord } from "../../loops/index.ts";
import { newRun } from "../../testing/loops-store-conformance/store-fixture.ts";
import { lsText } from "./loops-render.ts";

function ended(
  id: string,
  loopId: string,
  state: LoopRunRecord["state"],
  cause: LoopRunRecord["cause"],
): LoopRunRecord {
  const at = `2026-01-01T00:0${id.slice(-1)}:00.000Z`;
  return {
    ...newRun(id, loopId, id, at),
    state,
    cause,
    parkReason: null,
    pausedFrom: null,
    stateSince: at,
    endedAt: at,
    leaseOwner: null,
    leaseExpiresAt: null,
    fencingToken: 0,
  };
}

describe("loops ls", () => {
  test("consecutive clean watch ticks of a loop share one row; other runs keep theirs", () => {
    const runs = [
      ended("w5", "watch", "no-op", "clean_tick"),
      ended("w4", "watch", "no-op", "clean_tick"),
      ended("w3", "watch", "no-op", "clean_tick"),
      ended("w2", "watch", "done", "gates_passed"),
      ended("w1", "watch", "no-op", "clean_tick"),
      ended("d1", "delivery", "no-op", "precheck_clean"),
    ];
    const rows = lsText(runs, Date.parse("2026-01-02T00:00:00Z")).trimEnd().split("\n").slice(1);
    assert.equal(rows.length, 4);
    assert.match(
      rows[0] ?? "",
      /^w5 \(\+2 older\)\s+watch\s+no-op \(clean_tick\) ×3 .*2026-01-01T00:03:00\.000Z \.\. 2026-01-01T00:05:00\.000Z/,
    );
    assert.match(rows[1] ?? "", /^w2\s+watch\s+done \(gates_passed\)/);
    assert.match(rows[2] ?? "", /^w1\s+watch\s+no-op \(clean_tick\)\s/);
    assert.match(rows[3] ?? "", /^d1\s+delivery\s+no-op \(precheck_clean\)/);
  });
});
