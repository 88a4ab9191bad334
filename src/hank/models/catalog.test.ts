import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BUNDLED_CATALOG_URL, bundledCatalog, createModelCatalog, loadModelCatalog } from "./catalog.ts";
import type { CatalogModel } from "./catalog-data.ts";
import { resolveModel } from "./resolve-model.ts";

function model(provider: string, id: string): CatalogModel {
  const cost = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
  return {
    provider,
    id,
    name: id,
    api: "a",
    contextWindow: 1000,
    maxOutputTokens: 100,
    reasoning: false,
    cost,
  };
}

const header = { source: "test", version: "0", generatedAt: "2026-01-01" };

describe("createModelCatalog", () => {
  const catalog = createModelCatalog({
    header,
    models: [
      model("openrouter", "Mixed-Case/Model"),
      model("huggingface", "Mixed-Case/Model"),
      model("anthropic", "claude-haiku-4-5"),
    ],
  });

  it("lists providers sorted", () => {
    assert.deepEqual(catalog.providers, ["anthropic", "huggingface", "openrouter"]);
  });

  it("looks up provider/id case-insensitively and returns the catalog's spelling", () => {
    assert.equal(catalog.find("OpenRouter", "mixed-case/model")?.id, "Mixed-Case/Model");
    assert.equal(catalog.find("openrouter", "claude-haiku-4-5"), undefined);
    assert.equal(catalog.hasProvider("ANTHROPIC"), true);
    assert.equal(catalog.hasProvider("anthropics"), false);
  });

  it("resolves a bare id to the preferred provider", () => {
    assert.equal(catalog.findBareId("MIXED-CASE/MODEL")?.provider, "huggingface");
    assert.deepEqual([...catalog.bareIds.keys()], ["mixed-case/model", "claude-haiku-4-5"]);
  });

  it("indexes aliases only for families it has", () => {
    assert.equal(catalog.aliasTarget("haiku")?.id, "claude-haiku-4-5");
    assert.equal(catalog.aliasTarget("opus"), undefined);
  });

  it("is immutable", () => {
    assert.equal(Object.isFrozen(catalog), true);
  });
});

describe("loadModelCatalog", () => {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-catalog-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the bundled catalog beside the module", () => {
    assert.equal(BUNDLED_CATALOG_URL.pathname.endsWith("/hank/models/catalog.json"), true);
    const catalog = loadModelCatalog();
    assert.equal(catalog.header.source, "@mariozechner/pi-ai");
    assert.equal(catalog.find("anthropic", "claude-haiku-4-5")?.provider, "anthropic");
    assert.equal(catalog.find("openai", "gpt-5")?.reasoning, true);
  });

  it("reads a copy from another folder, as the built package does from dist/", () => {
    const copy = join(dir, "catalog.json");
    copyFileSync(BUNDLED_CATALOG_URL, copy);
    assert.equal(loadModelCatalog(copy).models.length, loadModelCatalog().models.length);
  });

  it("throws on a malformed file", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ header, models: [{ provider: "x" }] }));
    assert.throws(() => loadModelCatalog(bad), /Model catalog: models\[0\] has an invalid "id"/);
  });

  it("shares one bundled instance", () => {
    assert.equal(bundledCatalog(), bundledCatalog());
  });
});

describe("resolveModel with the bundled catalog", () => {
  // These pin the current snapshot (pi-ai 0.73.1); a refresh that adds newer models moves the aliases.
  it("resolves the aliases to the newest Anthropic models", () => {
    const ids = ["haiku", "sonnet", "opus"].map((alias) => {
      const result = resolveModel(alias);
      return result.ok
        ? `${result.model.provider}/${result.model.id} ${result.model.harness}`
        : result.message;
    });
    assert.deepEqual(ids, [
      "anthropic/claude-haiku-4-5 claude",
      "anthropic/claude-sonnet-4-6 claude",
      "anthropic/claude-opus-4-7 claude",
    ]);
  });

  it("infers canonical providers", () => {
    const providers = ["claude-sonnet-4-5", "gpt-5.1", "o3", "gemini-2.5-pro", "grok-4"].map((id) => {
      const result = resolveModel(id);
      return result.ok ? result.model.provider : result.message;
    });
    assert.deepEqual(providers, ["anthropic", "openai", "openai", "google", "xai"]);
  });

  it("suggests close ids", () => {
    const suggestions = ["haiku-4", "claude-sonet-4-5", "gpt5"].map((id) => {
      const result = resolveModel(id);
      return result.ok ? [] : result.suggestions;
    });
    assert.deepEqual(suggestions, [
      ["claude-haiku-4-5", "claude-haiku-4.5", "claude-haiku-4-5-20251001"],
      ["claude-sonnet-4-5", "claude-sonnet-4-0", "claude-sonnet-4-6"],
      ["gpt-5", "gpt-4"],
    ]);
  });
});
