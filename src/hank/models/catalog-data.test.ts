import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCatalogData } from "./catalog-data.ts";

const header = { source: "s", version: "1", generatedAt: "2026-01-01" };
const cost = { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 };
const entry = {
  provider: "p",
  id: "m",
  name: "M",
  api: "a",
  contextWindow: 1000,
  maxOutputTokens: 100,
  reasoning: true,
  cost,
};

describe("parseCatalogData", () => {
  it("returns the typed data, dropping unknown fields", () => {
    assert.deepEqual(parseCatalogData({ header, models: [{ ...entry, extra: 1 }] }), {
      header,
      models: [entry],
    });
  });

  it("accepts a model without a fixed price", () => {
    assert.equal(parseCatalogData({ header, models: [{ ...entry, cost: null }] }).models[0]?.cost, null);
  });

  it("throws on a wrong shape, naming the place", () => {
    assert.throws(() => parseCatalogData([]), /Model catalog: the file is not an object/);
    assert.throws(
      () => parseCatalogData({ header: {}, models: [] }),
      /Model catalog: header has an invalid "source"/,
    );
    assert.throws(
      () => parseCatalogData({ header, models: [{ ...entry, contextWindow: 1.5 }] }),
      /Model catalog: models\[0\] has an invalid "contextWindow"/,
    );
    assert.throws(
      () => parseCatalogData({ header, models: [{ ...entry, cost: { ...cost, output: -1 } }] }),
      /Model catalog: models\[0\]\.cost has an invalid "output"/,
    );
  });
});
