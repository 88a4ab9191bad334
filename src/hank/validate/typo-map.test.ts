import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CODON_FIELDS } from "../schema/index.ts";
import { CODON_TYPOS, closestMatch, lookupTypo, suggestField } from "./typo-map.ts";

describe("typo map", () => {
  it("maps the reference runtime's typos", () => {
    assert.equal(CODON_TYPOS.trackedFiles, "checkpointedFiles");
    assert.equal(CODON_TYPOS.systemPromptFile, "appendSystemPromptFile");
    assert.equal(CODON_TYPOS.maxCost, "budget.maxDollars");
    assert.equal(CODON_TYPOS.timeLimit, "budget.maxTimeSeconds");
    assert.equal(CODON_TYPOS.tokenLimit, "budget.maxOutputTokens");
    assert.equal(CODON_TYPOS.teardown, "archiveOnSuccess");
  });

  it("looks typos up ignoring case", () => {
    assert.equal(lookupTypo(CODON_TYPOS, "TrackedFiles"), "checkpointedFiles");
    assert.equal(lookupTypo(CODON_TYPOS, "nothing"), undefined);
  });

  it("finds near misses by edit distance, and nothing for unrelated words", () => {
    assert.equal(closestMatch("promtFile", CODON_FIELDS), "promptFile");
    assert.equal(closestMatch("MODEL", CODON_FIELDS), "model");
    assert.equal(closestMatch("banana", CODON_FIELDS), undefined);
  });

  it("prefers the typo map over edit distance", () => {
    assert.equal(suggestField("output", CODON_FIELDS, CODON_TYPOS), "outputFiles");
    assert.equal(suggestField("onFailur", CODON_FIELDS, undefined), "onFailure");
  });
});
