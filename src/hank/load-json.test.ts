import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findJsonFault, lineAndColumn, parseJsonWithPosition } from "./load-json.ts";

describe("parseJsonWithPosition", () => {
  test("valid JSON parses", () => {
    assert.deepEqual(parseJsonWithPosition('  {"a": [1, 2.5e3, true, null, "\\u00e9"]}'), {
      ok: true,
      value: { a: [1, 2500, true, null, "é"] },
    });
  });

  const faults: Array<[string, string, number, number, string]> = [
    ['{\n  "a": 1,\n}', "Trailing comma before '}'", 3, 1, "Remove the comma after the last property."],
    ["[1,]", "Trailing comma before ']'", 1, 4, "Remove the comma after the last item."],
    ['{\n  "a": }', "Expected a value, found '}'", 2, 8, "Write the missing value."],
    ['{"a":1', "Unexpected end of JSON input", 1, 7, 'The "{" opened at line 1, column 1 is never closed.'],
    ["", "The file is empty", 1, 1, 'Write a JSON object: { "hank": [...] }.'],
    ['{\n  // note\n  "a": 1\n}', "Comments are not allowed in JSON", 2, 3, "Remove the comment."],
    [
      "{'a': 1}",
      "Expected a double-quoted property name, found token '''",
      1,
      2,
      "Use double quotes around property names.",
    ],
    [
      "{a: 1}",
      "Expected a double-quoted property name, found token 'a'",
      1,
      2,
      "Put property names in double quotes.",
    ],
    ['{"a": [1 2]}', "Expected ',' or ']', found token '2'", 1, 10, "A comma is probably missing before it."],
    ['{"a": 1]', "Expected ',' or '}', found token ']'", 1, 8, "The brackets do not match."],
    [
      '{"a": "x\ny"}',
      "Bad control character in string",
      1,
      9,
      'Write a newline inside a string as "\\n" and a tab as "\\t".',
    ],
    [
      '{"a": "C:\\dir"}',
      "Bad escape in string",
      1,
      10,
      'Write a backslash as "\\\\" (paths in hank files use "/").',
    ],
    ['{"a": "x', "Unterminated string", 1, 7, "Close the string with a double quote."],
    [
      '{"a": 1} {}',
      "Unexpected content after the end of the JSON value",
      1,
      10,
      "Remove it, or wrap both values in one list.",
    ],
    [
      '{"a": yes}',
      "Unexpected token 'yes'",
      1,
      7,
      "Strings must be double-quoted; numbers, true, false and null are written bare.",
    ],
  ];
  for (const [text, message, line, column, hint] of faults) {
    test(`${message} at ${line}:${column}`, () => {
      const parsed = parseJsonWithPosition(text);
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.deepEqual(
        [parsed.message, parsed.line, parsed.column, parsed.hint],
        [message, line, column, hint],
      );
    });
  }

  test("the scanner agrees with JSON.parse on a fixed corpus", () => {
    const corpus = [
      "{}",
      "[]",
      '""',
      "0",
      "-0.5e-3",
      "01",
      "1.",
      ".5",
      "[1,[2,[3]]]",
      '{"a":{"b":{}}}',
      "tru",
      "nul",
      '"\\u12"',
      "[,1]",
      '{"a",}',
      "[1]]",
      "{}}",
    ];
    for (const text of corpus) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      assert.equal(findJsonFault(text) === null, valid, text);
    }
  });

  test("deep nesting does not overflow the scanner", () => {
    const fault = findJsonFault("[".repeat(100_000));
    assert.equal(fault?.message, "Unexpected end of JSON input");
  });
});

describe("lineAndColumn", () => {
  test("1-based line and column", () => {
    assert.deepEqual(lineAndColumn("ab\ncd", 0), { line: 1, column: 1 });
    assert.deepEqual(lineAndColumn("ab\ncd", 4), { line: 2, column: 2 });
  });
});
