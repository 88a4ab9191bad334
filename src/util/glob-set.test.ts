import assert from "node:assert/strict";
import { test } from "node:test";
import { compileGlobs, gitPathspecs, normalizeGlob } from "./glob-set.ts";

const matching = (glob: string, paths: readonly string[]): string[] =>
  paths.filter((path) => compileGlobs([glob]).matches(path));

test("normalizeGlob drops ./, empty and trailing parts; the work tree itself means everything", () => {
  assert.deepEqual(["./notes/", "a//b", ".", "/", "", "./"].map(normalizeGlob), [
    "notes",
    "a/b",
    "**",
    "**",
    "**",
    "**",
  ]);
});

test("* and ? stay inside one path segment; dotfiles are not special", () => {
  const paths = ["a.md", ".hidden.md", "d/a.md", "ab", "a/b"];
  assert.deepEqual(matching("*.md", paths), ["a.md", ".hidden.md"]);
  assert.deepEqual(matching("a?", paths), ["ab"]);
  assert.deepEqual(matching("a*b", paths), ["ab"]);
});

test("** segments span directories: zero or more when leading or inner, one or more when trailing", () => {
  const paths = ["y", "x/y", "x/m/y", "x/m/n/y", "x", "q/x/y"];
  assert.deepEqual(matching("x/**/y", paths), ["x/y", "x/m/y", "x/m/n/y"]);
  assert.deepEqual(matching("**/y", paths), ["y", "x/y", "x/m/y", "x/m/n/y", "q/x/y"]);
  assert.deepEqual(matching("x/**", paths), ["x/y", "x/m/y", "x/m/n/y"]);
  assert.deepEqual(matching("x**", ["x", "xz", "x/y"]), ["x", "xz", "x/y"]);
});

test("a matching directory matches everything under it", () => {
  assert.deepEqual(matching("notes", ["notes", "notes/a.md", "notes/s/b.md", "notes1/a.md"]), [
    "notes",
    "notes/a.md",
    "notes/s/b.md",
  ]);
  assert.deepEqual(matching("docs*", ["docs/a", "docs1/b", "doc/c"]), ["docs/a", "docs1/b"]);
});

test("bracket expressions: sets, ranges, negation, POSIX classes, literal ] and unclosed [", () => {
  const paths = ["a1", "b1", "c1", "]1", "-1", "A1", "[1"];
  assert.deepEqual(matching("[ab]1", paths), ["a1", "b1"]);
  assert.deepEqual(matching("[a-b]1", paths), ["a1", "b1"]);
  assert.deepEqual(matching("[!a-b]1", paths), ["c1", "]1", "-1", "A1", "[1"]);
  assert.deepEqual(matching("[^a-b]1", paths), ["c1", "]1", "-1", "A1", "[1"]);
  assert.deepEqual(matching("[]]1", paths), ["]1"]);
  assert.deepEqual(matching("[a-]1", paths), ["a1", "-1"]);
  assert.deepEqual(matching("[[:upper:]]1", paths), ["A1"]);
  assert.deepEqual(matching("[[:nope:]]1", paths), []);
  assert.deepEqual(matching("[z-a]1", paths), []);
  assert.deepEqual(matching("[1", paths), ["[1"]);
});

test("regex metacharacters and escapes are literal", () => {
  assert.deepEqual(matching("a+(b).md", ["a+(b).md", "aab.md"]), ["a+(b).md"]);
  assert.deepEqual(matching("what\\?", ["what?", "whatx"]), ["what?"]);
  assert.deepEqual(matching("no-dash", ["no-dash"]), ["no-dash"]);
});

test("mayContain tells which directories a glob can reach into", () => {
  const dirs = ["src", "src/util", "src/util/deep", "lib", "docs/api", "anything/else"];
  const narrow = compileGlobs(["src/*/index.ts", "docs"]);
  assert.deepEqual(
    dirs.map((dir) => narrow.mayContain(dir)),
    [true, true, false, false, true, false],
  );
  const wide = compileGlobs(["**/*.md"]);
  assert.deepEqual(
    dirs.map((dir) => wide.mayContain(dir)),
    [true, true, true, true, true, true],
  );
});

test("gitPathspecs adds the contents form unless the glob already covers it", () => {
  assert.deepEqual(gitPathspecs(compileGlobs(["notes", "a/**", ".", "*.md", "notes"])), [
    ":(glob)notes",
    ":(glob)notes/**",
    ":(glob)a/**",
    ":(glob)**",
    ":(glob)*.md",
    ":(glob)*.md/**",
  ]);
});
