import { z } from "zod";
import { LoopDefinitionSchema } from "./definition-schema.ts";

export const LOOP_SCHEMA_ID = "https://unpkg.com/hankweave@latest/schemas/loop.schema.json";

/**
 * The JSON Schema of a `.loop.toml` file as written by hand (fields with defaults are optional), from
 * the zod schema that validates definitions. TOML editors (Taplo, Even Better TOML) use it for
 * completion and checking: `hankweave loops schema > loop.schema.json`.
 */
export function loopJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(LoopDefinitionSchema, { target: "draft-2020-12", io: "input" });
  const { $schema, ...rest } = generated;
  return { $schema, $id: LOOP_SCHEMA_ID, title: "hankweave loop definition (<id>.loop.toml)", ...rest };
}
