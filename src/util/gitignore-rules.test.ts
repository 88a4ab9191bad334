import assert from "node:assert/strict";
import { test } from "node:test";
import { isIgnored, parseGitignore } from "./gitignore-rules.ts";

function check(
  gitignore: string,
  cases: ReadonlyArray<[path: string, isDirectory: boolean, ignored: boolean]>,
): void {
  const rules = parseGitignore(gitignore);
  const actual = cases.map(([path, isDirectory]) => [path, isDirectory, isIgnored(rules, path, isDirectory)]);
  assert.deepEqual(actual, cases);
}

test("comments, blank lines and CRLF line ends are handled", () => {
  assert.equal(parseGitignore("# comment\r\n\r\n*.log\r\n").length, 1);
  check("# comment\n\n*.log\n", [
    ["a.log", false, true],
    ["# comment", false, false],
  ]);
});

test("a name without slash matches at any depth; a trailing slash matches directories only", () => {
  check("node_modules/\n*.log\n", [
    ["node_modules", true, true],
    ["src/node_modules", true, true],
    ["node_modules", false, false],
    ["deep/x/debug.log", false, true],
    ["logs", true, false],
  ]);
});

test("a leading or inner slash anchors the pattern to the root", () => {
  check("/build\ndocs/gen\n", [
    ["build", true, true],
    ["src/build", true, false],
    ["docs/gen", true, true],
    ["x/docs/gen", true, false],
  ]);
});

test("negation re-includes, and the last matching rule wins", () => {
  check("*.log\n!keep.log\nsecret/keep.log\n", [
    ["a.log", false, true],
    ["keep.log", false, false],
    ["secret/keep.log", false, true],
  ]);
});

test("double stars: leading, trailing and between slashes", () => {
  check("**/cache\nout/**\na/**/z.txt\n", [
    ["cache", true, true],
    ["p/q/cache", true, true],
    ["out/x", false, true],
    ["out/x/y", false, true],
    ["out", true, false],
    ["a/z.txt", false, true],
    ["a/b/c/z.txt", false, true],
    ["b/a/z.txt", false, false],
  ]);
});

test("single star and question mark never cross a slash", () => {
  check("/src/*.tmp\nfile?.txt\n", [
    ["src/a.tmp", false, true],
    ["src/sub/a.tmp", false, false],
    ["file1.txt", false, true],
    ["file10.txt", false, false],
  ]);
});

test("bracket classes, negated classes and an unclosed bracket", () => {
  check("[Tt]emp\nlog[!0-9]\n[oops\n", [
    ["Temp", true, true],
    ["temp", true, true],
    ["xemp", true, false],
    ["loga", false, true],
    ["log1", false, false],
    ["[oops", false, true],
  ]);
});

test("escapes and trailing spaces", () => {
  check("\\#notes\n\\!bang\ntrail   \nspace\\ \n", [
    ["#notes", false, true],
    ["!bang", false, true],
    ["trail", false, true],
    ["space ", false, true],
    ["space", false, false],
  ]);
});

test("regex characters in names are literal", () => {
  check("a+b.(c)\n", [
    ["a+b.(c)", false, true],
    ["aab.(c)", false, false],
    ["a+bx(c)", false, false],
  ]);
});
