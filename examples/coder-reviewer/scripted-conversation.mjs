/**
 * The offline conversation of the coder and the reviewer. The scripted agent reads its prompt as a
 * script (docs/scripted-agent.md) and answers with the text it says last, so here each agent's answer
 * is the next agent's whole script: the loop carries the conversation from step to step for real, and
 * the agents really write files and run the tests in the workspace. Real models get `task.md` instead.
 */

/** Directive text: `\n` stands for a newline and `\\` for a backslash. */
const directiveText = (text) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const write = (path, text) => `@write ${path} ${directiveText(text)}`;
const say = (text) => `@say ${directiveText(text)}`;
const lines = (...parts) => parts.join("\n");

const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
const TESTS = `import assert from "node:assert/strict";
import { test } from "node:test";
import { add } from "./add.mjs";

test("adds positive, negative and decimal numbers", () => {
  assert.equal(add(2, 3), 5);
  assert.equal(add(-1, -1), -2);
  assert.equal(add(0.5, 0.25), 0.75);
});
`;

/** Iteration 2, reviewer: the tests pass now. */
const secondReview = lines(
  "Fixed add.mjs: add() now returns a + b. Please review again.",
  "@run node --test",
  say("LGTM: the three cases pass and add() adds."),
);

/** Iteration 2, coder: reads the remarks (its prose lines) and fixes the code. */
const fix = lines(
  "add() subtracts: add(2, 3) returns -1. In add.mjs line 2, return a + b.",
  write("add.mjs", FIXED),
  "@run node --test",
  say(secondReview),
);

/** Iteration 1, reviewer: runs the tests (they fail) and sends its remarks. */
const firstReview = lines(
  "Please review add.mjs and add.test.mjs.",
  "@run node --test",
  write("review.md", "# Review 1\n\n- add.mjs:2 subtracts; the test expects a sum.\n"),
  say(fix),
);

/** Iteration 1, coder: the task's first answer (with a bug the reviewer will find). */
export const scriptedTask = lines(
  "I will write add() and its tests.",
  write("add.mjs", BUGGY),
  write("add.test.mjs", TESTS),
  say(firstReview),
);
