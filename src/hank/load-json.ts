/**
 * JSON parsing with a position for every syntax error. `JSON.parse` does the parsing; when it fails,
 * a small scanner walks the text to find where and why (V8's messages do not always carry a
 * position), and names the usual culprits (trailing commas, comments, single quotes, unquoted keys)
 * in the hint. The scanner is iterative, so deep nesting cannot overflow the stack.
 */
export type JsonParse =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly message: string;
      readonly hint: string;
      /** UTF-16 offset of the error; line and column are 1-based. */
      readonly offset: number;
      readonly line: number;
      readonly column: number;
    };

type Fault = { offset: number; message: string; hint: string };

const PLAIN_JSON =
  "Hank files are plain JSON: double-quoted keys and strings, no comments, no trailing commas.";

export function parseJsonWithPosition(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    const fault = findJsonFault(text) ?? { offset: 0, message: reason, hint: PLAIN_JSON };
    return { ok: false, ...fault, ...lineAndColumn(text, fault.offset) };
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}

/** What the scanner expects next. */
type Expect =
  | "value"
  | "value-or-close"
  | "value-after-comma"
  | "key-or-close"
  | "key"
  | "colon"
  | "comma-or-close"
  | "end";

/** Finds the first syntax error, or null if the text is valid JSON. */
export function findJsonFault(text: string): Fault | null {
  const open: Open = [];
  let expect: Expect = "value";
  let at = skipSpace(text, 0);
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === "/")
      return { offset: at, message: "Comments are not allowed in JSON", hint: "Remove the comment." };
    const step = advance(text, at, char, expect, open);
    if ("message" in step) return step;
    expect = step.expect;
    at = skipSpace(text, step.next);
  }
  if (expect === "end") return null;
  const unclosed = open.at(-1);
  if (unclosed === undefined)
    return { offset: at, message: "The file is empty", hint: 'Write a JSON object: { "hank": [...] }.' };
  const where = lineAndColumn(text, unclosed.offset);
  return {
    offset: at,
    message: "Unexpected end of JSON input",
    hint: `The "${unclosed.char}" opened at line ${where.line}, column ${where.column} is never closed.`,
  };
}

type Open = { char: "{" | "["; offset: number }[];
type Step = { next: number; expect: Expect } | Fault;
type Token = { readonly text: string; readonly at: number; readonly char: string; readonly open: Open };

/** One token: returns the next position and expectation, or a fault. */
function advance(text: string, at: number, char: string, expect: Expect, open: Open): Step {
  const token: Token = { text, at, char, open };
  switch (expect) {
    case "end":
      return fault(
        at,
        "Unexpected content after the end of the JSON value",
        "Remove it, or wrap both values in one list.",
      );
    case "colon":
      return char === ":"
        ? { next: at + 1, expect: "value" }
        : fault(at, "Expected ':' after property name", PLAIN_JSON);
    case "comma-or-close":
      return commaOrClose(token);
    case "key-or-close":
    case "key":
      return keyToken(token, expect === "key-or-close");
    default:
      return valueToken(token, expect);
  }
}

function afterValue(open: Open, next: number): Step {
  return { next, expect: open.length === 0 ? "end" : "comma-or-close" };
}

function closes(token: Token): boolean {
  const top = token.open.at(-1)?.char;
  return (token.char === "}" && top === "{") || (token.char === "]" && top === "[");
}

function commaOrClose(token: Token): Step {
  const { at, char, open } = token;
  const inObject = open.at(-1)?.char === "{";
  if (char === ",") return { next: at + 1, expect: inObject ? "key" : "value-after-comma" };
  if (closes(token)) {
    open.pop();
    return afterValue(open, at + 1);
  }
  const expected = `Expected ',' or '${inObject ? "}" : "]"}', found ${describe(token)}`;
  if (char === "}" || char === "]") return fault(at, expected, "The brackets do not match.");
  return fault(at, expected, "A comma is probably missing before it.");
}

function keyToken(token: Token, mayClose: boolean): Step {
  const { text, at, char, open } = token;
  if (char === "}" && mayClose) {
    open.pop();
    return afterValue(open, at + 1);
  }
  if (char === "}")
    return fault(at, "Trailing comma before '}'", "Remove the comma after the last property.");
  if (char !== '"') {
    const hint =
      char === "'" ? "Use double quotes around property names." : "Put property names in double quotes.";
    return fault(at, `Expected a double-quoted property name, found ${describe(token)}`, hint);
  }
  return then(scanString(text, at), (next) => ({ next, expect: "colon" }));
}

function valueToken(token: Token, expect: Expect): Step {
  const { text, at, char, open } = token;
  if (char === "]" && expect === "value-or-close") {
    open.pop();
    return afterValue(open, at + 1);
  }
  if ((char === "]" || char === "}") && expect === "value-after-comma") {
    return fault(at, `Trailing comma before '${char}'`, "Remove the comma after the last item.");
  }
  if (char === "}" || char === "]")
    return fault(at, `Expected a value, found '${char}'`, "Write the missing value.");
  if (char === "{" || char === "[") {
    open.push({ char, offset: at });
    return { next: at + 1, expect: char === "{" ? "key-or-close" : "value-or-close" };
  }
  if (char === '"') return then(scanString(text, at), (next) => afterValue(open, next));
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  number.lastIndex = at;
  if (number.test(text)) return afterValue(open, number.lastIndex);
  for (const literal of ["true", "false", "null"]) {
    if (text.startsWith(literal, at)) return afterValue(open, at + literal.length);
  }
  const hint =
    char === "'"
      ? "Use double quotes for strings."
      : "Strings must be double-quoted; numbers, true, false and null are written bare.";
  return fault(at, `Unexpected ${describe(token)}`, hint);
}

/** Scans a string starting at its opening quote; returns the offset after the closing quote. */
function scanString(text: string, start: number): number | Fault {
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at + 1;
    if (code < 0x20) {
      return fault(
        at,
        "Bad control character in string",
        'Write a newline inside a string as "\\n" and a tab as "\\t".',
      );
    }
    if (code === 0x5c) {
      const escapeSequence = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
      escapeSequence.lastIndex = at;
      if (!escapeSequence.test(text)) {
        return fault(
          at,
          "Bad escape in string",
          'Write a backslash as "\\\\" (paths in hank files use "/").',
        );
      }
      at = escapeSequence.lastIndex - 1;
    }
  }
  return fault(start, "Unterminated string", "Close the string with a double quote.");
}

function then(scanned: number | Fault, next: (offset: number) => Step): Step {
  return typeof scanned === "number" ? next(scanned) : scanned;
}

function fault(offset: number, message: string, hint: string): Fault {
  return { offset, message, hint };
}

function describe({ text, at }: Token): string {
  const word = /[A-Za-z_$][\w$]*/y;
  word.lastIndex = at;
  const token = word.test(text) ? text.slice(at, word.lastIndex) : text.charAt(at);
  return `token '${token}'`;
}

function skipSpace(text: string, at: number): number {
  let next = at;
  while (next < text.length && " \t\n\r".includes(text.charAt(next))) next++;
  return next;
}
