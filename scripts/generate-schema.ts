/**
 * Writes schemas/hank.schema.json, the JSON Schema of a hank file, from the zod schema that validates
 * hanks (the single source of truth). Editors use it for completion and checking; `npm run schema`
 * regenerates it and test/schema-export.test.ts fails when the committed file is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { HankFile } from "../src/hank/schema/index.ts";

export const HANK_SCHEMA_ID = "https://unpkg.com/hankweave@latest/schemas/hank.schema.json";
export const HANK_SCHEMA_FILE = fileURLToPath(new URL("../schemas/hank.schema.json", import.meta.url));

/** The schema of a hank as written by hand (`io: "input"`: fields with defaults are optional). */
export function hankJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(HankFile, { target: "draft-2020-12", io: "input" });
  const { $schema, ...rest } = generated;
  return { $schema, $id: HANK_SCHEMA_ID, title: "hankweave hank file", ...rest };
}

/** The exact text of the committed file. */
export function hankJsonSchemaText(): string {
  return `${JSON.stringify(hankJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(HANK_SCHEMA_FILE, hankJsonSchemaText());
  console.log(`wrote ${HANK_SCHEMA_FILE}`);
}
