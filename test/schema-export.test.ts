import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { HANK_SCHEMA_FILE, HANK_SCHEMA_ID, hankJsonSchemaText } from "../scripts/generate-schema.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function compileSchema() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  return ajv.compile(readJson(HANK_SCHEMA_FILE) as object);
}

describe("schemas/hank.schema.json", () => {
  it("is current: equal to a fresh generation (run `npm run schema` when this fails)", () => {
    assert.equal(readFileSync(HANK_SCHEMA_FILE, "utf8"), hankJsonSchemaText());
  });

  it("carries its $id, title and the 2020-12 dialect", () => {
    const schema = readJson(HANK_SCHEMA_FILE) as Record<string, unknown>;
    assert.equal(schema.$id, HANK_SCHEMA_ID);
    assert.equal(schema.title, "hankweave hank file");
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  });

  it("accepts the spec's minimal loop fixture", () => {
    const validate = compileSchema();
    assert.equal(
      validate(readJson(join(root, "test/fixtures/minimal-loop/hank.json"))),
      true,
      JSON.stringify(validate.errors),
    );
  });

  it("accepts every bundled example", () => {
    const validate = compileSchema();
    // Every hank file under examples/ (the Loops example keeps its hanks in subfolders; the loop()
    // example has none).
    const hankFiles = readdirSync(join(root, "examples"), { recursive: true, encoding: "utf8" })
      .filter((path) => basename(path) === "hank.json")
      .sort();
    assert.deepEqual(hankFiles, [
      "hello/hank.json",
      "loops/hank/counter/hank.json",
      "loops/hank/idle/hank.json",
      "loops/hank/triage/hank.json",
      "revise-loop/hank.json",
      "sentinel-watch/hank.json",
    ]);
    for (const example of hankFiles) {
      const hank = readJson(join(root, "examples", example));
      assert.equal(validate(hank), true, `${example}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it("rejects an unknown root key", () => {
    const validate = compileSchema();
    const hank = {
      hank: [{ id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "hi" }],
      outputFiles: [],
    };
    assert.equal(validate(hank), false);
    assert.deepEqual(
      validate.errors?.map((e) => [e.keyword, e.params]),
      [["additionalProperties", { additionalProperty: "outputFiles" }]],
    );
  });
});
