import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, it } from "node:test";
import { parseArgs } from "../parse-args.ts";
import { inlineConflict, takeInlineInput } from "./inline-args.ts";
import { CACHE_DIR_ENV, INPUT_FILE_NAME, materializeInput, storeInput } from "./inline-input.ts";

describe("the inputs cache", () => {
  let cache = "";
  let env: Record<string, string> = {};
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), "hankweave-inputs-"));
    env = { [CACHE_DIR_ENV]: cache };
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  it("stores text under its sha256, once", () => {
    const first = storeInput(Buffer.from("hello"), env);
    const second = storeInput(Buffer.from("hello"), env);
    assert.equal(first, second);
    assert.equal(
      first,
      join(cache, "inputs", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
    );
    assert.equal(readFileSync(join(first, INPUT_FILE_NAME), "utf8"), "hello");
    assert.deepEqual(readdirSync(join(cache, "inputs")), [first.split("/").at(-1)]);
  });

  it("replaces an entry whose content no longer matches its name", () => {
    const dir = storeInput(Buffer.from("hello"), env);
    writeFileSync(join(dir, INPUT_FILE_NAME), "edited");
    assert.equal(storeInput(Buffer.from("hello"), env), dir);
    assert.equal(readFileSync(join(dir, INPUT_FILE_NAME), "utf8"), "hello");
  });

  it("reads stdin to its end for -", async () => {
    const dir = await materializeInput({ kind: "stdin" }, env, Readable.from([Buffer.from("a"), "b"]));
    assert.equal(readFileSync(join(dir, INPUT_FILE_NAME), "utf8"), "ab");
  });
});

describe("inline data arguments", () => {
  it("takes - in the data position, never in the hank position", () => {
    assert.deepEqual(takeInlineInput(["-"], {}), { positionals: [], raw: {}, input: { kind: "stdin" } });
    assert.deepEqual(takeInlineInput(["h.json", "-"], {}), {
      positionals: ["h.json"],
      raw: {},
      input: { kind: "stdin" },
    });
    assert.deepEqual(takeInlineInput(["-", "data"], {}), { positionals: ["-", "data"], raw: {} });
    assert.deepEqual(takeInlineInput([], { data: "-" }), {
      positionals: [],
      raw: {},
      input: { kind: "stdin" },
    });
  });

  it("refuses the data given twice", () => {
    assert.match(String(takeInlineInput(["-"], { input: "x" })), /given twice: -i\/--input and '-'/);
    assert.match(
      String(inlineConflict({ kind: "text", text: "x" }, "/d")),
      /given twice: '\/d' and -i\/--input/,
    );
  });

  it("parses -i into the run's options", () => {
    const parsed = parseArgs(["-i", "some text", "--headless"], "/work");
    assert.equal(parsed.ok, true);
    if (!parsed.ok || parsed.command.kind !== "run") return;
    assert.deepEqual(parsed.command.options.inlineInput, { kind: "text", text: "some text" });
    assert.equal(parsed.command.options.dataPath, undefined);
  });

  it("refuses -i beside a data directory", () => {
    const parsed = parseArgs(["-i", "x", "--data", "/d"], "/work");
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.message, /given twice: '\/d' and -i\/--input/);
  });
});
