import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { packParts, padVisible, visibleLength, wrapText } from "./text.ts";

describe("text helpers", () => {
  it("measures without ANSI codes", () => {
    assert.equal(visibleLength("\u001b[31m✗ no\u001b[39m"), 4);
    assert.equal(padVisible("\u001b[1mab\u001b[22m", 4), "\u001b[1mab\u001b[22m  ");
  });

  it("wraps on spaces, keeps newlines and cuts words longer than the width", () => {
    assert.deepEqual(wrapText("one two three four", 9), ["one two", "three", "four"]);
    assert.deepEqual(wrapText("a\nb c", 10), ["a", "b c"]);
    assert.deepEqual(wrapText("abcdefghij", 4), ["abcd", "efgh", "ij"]);
  });

  it("packs parts into as few lines as fit", () => {
    assert.deepEqual(packParts(["model: x", "mode: fresh", "prompts: 1"], 24), [
      "model: x │ mode: fresh",
      "prompts: 1",
    ]);
    assert.deepEqual(packParts([], 10), []);
  });
});
