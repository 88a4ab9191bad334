import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runLoops } from "./loops-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "loops-lint-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `hankweave loops lint <file>` in `dir`, on a definition written there first. */
function lint(name: string, toml: string, json = false) {
  writeFileSync(join(dir, name), toml);
  const argv = ["--db", join(dir, "lint.db"), "lint", name, ...(json ? ["--json"] : [])];
  return runLoops(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
}

const BODY = `name = "Nightly"
hank = "./no-hank"
data = "./no-data"

[contract]
goal = "the tests pass"
iteration_cap = 3

[[gates]]
id = "tests"
kind = "command"
run = ["./gates/tests.sh"]
`;

describe("loops lint: every problem in one round", () => {
  test("a bad id, an unknown field and the missing files are reported together; each fix says what to write", async () => {
    const result = await lint("broken.loop.toml", `id = "Nightly Build"\nbogus = 1\n${BODY}`);
    assert.equal(result.code, 1);
    const lines = result.stderr.split("\n");
    const fixAfter = (pattern: RegExp) => lines[lines.findIndex((line) => pattern.test(line)) + 1];
    assert.equal(fixAfter(/ id: .*A loop id uses lowercase/), '  fix: Change id to "nightly-build".');
    assert.match(result.stderr, /bogus: Unknown field bogus\./);
    assert.match(result.stderr, /hank: The body hank .*no-hank does not exist\./);
    assert.match(result.stderr, /data: The data source .*no-data does not exist\./);
    assert.match(result.stderr, /gates\[0\]\.run\[0\]: .*gates\/tests\.sh does not exist\./);
    assert.match(result.stdout, /admission table needs a definition that passes its schema/);
  });

  test("missing files do not hide the admission table", async () => {
    const result = await lint("files.loop.toml", `id = "nightly"\n${BODY}`);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /The body hank .*no-hank does not exist/);
    assert.match(result.stdout, /^admission$/m);
    assert.match(result.stdout, /MISSING +actability +the body hank does not load/);
    assert.match(result.stdout, /ok +economics +iteration cap 3/);
    assert.match(result.stdout, /^not valid: fix the errors above, then lint again$/m);
  });
});
