import assert from "node:assert/strict";
import { test } from "node:test";
import { createLineSplitter } from "./line-splitter.ts";

function split(chunks: readonly Buffer[], maxLineChars?: number): string[] {
  const lines: string[] = [];
  const splitter = createLineSplitter((line) => lines.push(line), maxLineChars);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

test("lines are split on LF, CRLF loses its CR, empty lines are kept", () => {
  assert.deepEqual(split([Buffer.from("a\r\n\nb\nc")]), ["a", "", "b", "c"]);
});

test("a line split across chunks is delivered once, whole", () => {
  assert.deepEqual(split([Buffer.from("hel"), Buffer.from("lo\nwor"), Buffer.from("ld\n")]), [
    "hello",
    "world",
  ]);
});

test("a UTF-8 character split across chunks is decoded whole", () => {
  const bytes = Buffer.from("é\n");
  assert.deepEqual(split([bytes.subarray(0, 1), bytes.subarray(1)]), ["é"]);
});

test("a run without newline longer than the limit is delivered in pieces", () => {
  assert.deepEqual(split([Buffer.from("abcdefg\nxy")], 3), ["abc", "def", "g", "xy"]);
});

test("nothing is delivered for empty input", () => {
  assert.deepEqual(split([]), []);
});
