import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundedText, codonResultOf, NO_TOKENS, RESULT_TEXT_LIMIT, resultTextOf } from "./codon-result.ts";

const facts = { tokens: NO_TOKENS, costUsd: 0.5, changedPaths: ["a.txt"] };

describe("codonResultOf", () => {
  it("keeps a text within the limit whole", () => {
    const result = codonResultOf({ ...facts, text: "Done." });
    assert.deepEqual(result, {
      text: "Done.",
      truncated: false,
      chars: 5,
      filesChanged: ["a.txt"],
      usage: { ...NO_TOKENS, costUsd: 0.5 },
    });
    assert.deepEqual(resultTextOf(result), { text: "Done.", truncated: false, chars: 5 });
  });

  it("keeps the first RESULT_TEXT_LIMIT characters of a longer text and marks it truncated", () => {
    const result = codonResultOf({ ...facts, text: "x".repeat(RESULT_TEXT_LIMIT + 10) });
    assert.equal(result.text.length, RESULT_TEXT_LIMIT);
    assert.equal(result.truncated, true);
    assert.equal(result.chars, RESULT_TEXT_LIMIT + 10);
  });

  it("is an empty text when the agent said nothing", () => {
    const result = codonResultOf({ ...facts, text: undefined, changedPaths: null });
    assert.deepEqual(
      [result.text, result.truncated, result.chars, result.filesChanged],
      ["", false, 0, null],
    );
  });
});

describe("boundedText", () => {
  it("never splits a surrogate pair", () => {
    assert.equal(boundedText("ab😀c", 3), "ab");
    assert.equal(boundedText("ab😀c", 4), "ab😀");
    assert.equal(boundedText("abc", 3), "abc");
  });
});
