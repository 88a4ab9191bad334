import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CatalogModel } from "./catalog-data.ts";
import { isClaudeAlias, latestClaudeModel, parseClaudeId } from "./claude-aliases.ts";

function model(provider: string, id: string): CatalogModel {
  const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  return { provider, id, name: id, api: "a", contextWindow: 1, maxOutputTokens: 1, reasoning: false, cost };
}

describe("parseClaudeId", () => {
  it("reads current and older naming", () => {
    assert.deepEqual(parseClaudeId("claude-haiku-4-5"), {
      family: "haiku",
      major: 4,
      minor: 5,
      stampRank: 0,
      date: "",
    });
    assert.deepEqual(parseClaudeId("claude-opus-4-20250514"), {
      family: "opus",
      major: 4,
      minor: 0,
      stampRank: 2,
      date: "20250514",
    });
    assert.deepEqual(parseClaudeId("claude-3-5-haiku-latest"), {
      family: "haiku",
      major: 3,
      minor: 5,
      stampRank: 1,
      date: "",
    });
    assert.deepEqual(parseClaudeId("claude-3-opus-20240229"), {
      family: "opus",
      major: 3,
      minor: 0,
      stampRank: 2,
      date: "20240229",
    });
  });

  it("ignores other ids", () => {
    assert.equal(parseClaudeId("claude-haiku-4.5"), undefined);
    assert.equal(parseClaudeId("anthropic.claude-haiku-4-5-20251001-v1:0"), undefined);
  });
});

describe("latestClaudeModel", () => {
  const pick = (ids: string[], alias: "haiku" | "sonnet" | "opus") =>
    latestClaudeModel(
      ids.map((id) => model("anthropic", id)),
      alias,
    )?.id;

  it("prefers the highest version", () => {
    assert.equal(
      pick(["claude-sonnet-4-5", "claude-sonnet-4-6", "claude-3-7-sonnet-20250219"], "sonnet"),
      "claude-sonnet-4-6",
    );
    assert.equal(
      pick(["claude-opus-4-1", "claude-opus-4-20250514", "claude-3-opus-20240229"], "opus"),
      "claude-opus-4-1",
    );
  });

  it("prefers undated over -latest over the newest dated id of one version", () => {
    assert.equal(pick(["claude-haiku-4-5-20251001", "claude-haiku-4-5"], "haiku"), "claude-haiku-4-5");
    assert.equal(
      pick(["claude-3-5-haiku-20241022", "claude-3-5-haiku-latest"], "haiku"),
      "claude-3-5-haiku-latest",
    );
    assert.equal(
      pick(["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"], "sonnet"),
      "claude-3-5-sonnet-20241022",
    );
  });

  it("only considers the anthropic provider", () => {
    const models = [model("anthropic", "claude-haiku-4-5"), model("opencode", "claude-haiku-9")];
    assert.equal(latestClaudeModel(models, "haiku")?.provider, "anthropic");
    assert.equal(latestClaudeModel(models, "opus"), undefined);
  });

  it("knows which names are aliases", () => {
    assert.deepEqual(["haiku", "sonnet", "opus", "HAIKU", "claude"].map(isClaudeAlias), [
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
