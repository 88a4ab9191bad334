import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderBox } from "./box.ts";

describe("renderBox", () => {
  it("fits the content", () => {
    assert.equal(
      renderBox(["ab", "abcd"], { width: 80 }),
      ["╭──────╮", "│ ab   │", "│ abcd │", "╰──────╯"].join("\n"),
    );
  });

  it("puts the title in the top border and widens for it", () => {
    assert.equal(
      renderBox(["x"], { width: 80, title: "OK" }),
      ["╭─ OK ───╮", "│ x      │", "╰────────╯"].join("\n"),
    );
  });

  it("wraps lines that would exceed the width", () => {
    const box = renderBox(["aaa bbb ccc"], { width: 11 });
    assert.equal(box, ["╭─────────╮", "│ aaa bbb │", "│ ccc     │", "╰─────────╯"].join("\n"));
  });
});
